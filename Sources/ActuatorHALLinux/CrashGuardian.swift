import ActuatorHAL
import CDrivers
import SystemPackage

/// A process that outlives this one to stop the chips when this one dies without an orderly end.
///
/// SIGINT and SIGTERM stop everything through the engine (`TerminationGuard`) and a crash runs
/// `EmergencyStop`'s handler, but SIGKILL, the OOM killer and a crash that handler cannot finish
/// run no code of this process, and a DRV2605 in RTP mode keeps driving its last value for ever.
///
/// `start(stopping:enableLines:)` forks the guardian (CDrivers' guardian.c, in C because between
/// `fork` and `_exit` the child of a multi-threaded process may only make async-signal-safe calls)
/// and starts its early-warning thread (guardian_sentinel.c).
/// It keeps one end of a socket pair whose other end only this process holds, the chips' bus
/// descriptors, one descriptor per enable line's GPIO chip and this process's requests of the
/// enable lines — nothing else, its other GPIO line requests least of all — takes a session of its
/// own, ignores SIGINT, SIGTERM, SIGHUP and SIGPIPE (so Ctrl-C and a kill of this process's group
/// do not reach it) and blocks in `read`.
/// - Orderly end: stop the chips, then call `disarm()`. The guardian exits touching nothing and is
///   reaped, so it never writes to a chip a later process has opened, and a following command never
///   finds a line busy.
/// - This process dies: as soon as it starts to, a thread it keeps for the purpose (holding a
///   robust futex the kernel releases when the thread exits) wakes the guardian, which issues every
///   chip's `ChipStop` steps — a multiplexer's channel select first, `I2C_RDWR` or SMBus as the
///   adapter needs — and drives each enable line low through its copy of this process's request of
///   the line (`GPIOLineLocation.heldRequest`). Once the kernel has closed the dead process's
///   descriptors (after tearing down its memory, which can take tens of milliseconds), the guardian
///   issues the steps again, drives the lines low again (a line given without a request it requests
///   as an output driven low through the GPIO character device, raw uAPI ioctls whichever libgpiod
///   this binary uses) and exits.
///
/// It needs no privilege beyond opening the buses and GPIO chips, which driving the chips needs.
/// It cannot cover power loss, a hung kernel, or a SIGKILL sent to the guardian itself (a service
/// manager's final kill of the whole control group, for one).
///
/// A guardian released without `disarm()` stays armed until this process ends — its end of the
/// pair is deliberately left open — so forgetting to disarm errs on the side of stopping the chips.
/// While armed it holds the enable lines it was given a request of: disarm before this process
/// requests them again (a board opened anew after one that was not closed finds them busy).
public final class CrashGuardian {
    /// How long `disarm()` waits for the guardian to exit before killing it.
    public static let exitTimeout: Duration = .seconds(1)

    /// The guardian's process ID.
    public let processID: Int32
    /// CDrivers' guardian; nil once ended (hb_guardian_finish frees it).
    private var handle: OpaquePointer?

    private init(handle: OpaquePointer) {
        self.handle = handle
        processID = hb_guardian_pid(handle)
    }

    /// Forks a guardian for `chips` (their stop steps, chip after chip) and `enableLines`. Call it
    /// once the chips' buses are open and their lines requested, and keep the buses open until
    /// `disarm()`: the guardian holds the same bus descriptors.
    /// - Throws: `CrashGuardianError.start` (EACCES: a GPIO chip this user cannot open; EAGAIN: no
    ///   process could be forked) or `.tooManyChips` / `.tooManyLines`.
    public static func start(stopping chips: [ChipStop], enableLines: [GPIOLineLocation]) throws(CrashGuardianError) -> CrashGuardian {
        try start(stopping: chips, enableLines: enableLines, recordingTo: -1)
    }

    /// `start`, or with `recordDescriptor` ≥ 0 a guardian that issues nothing and instead writes a
    /// record of each step and line to that descriptor (`RecordedStopAction`), for tests.
    static func start(stopping chips: [ChipStop], enableLines: [GPIOLineLocation], recordingTo recordDescriptor: CInt) throws(CrashGuardianError) -> CrashGuardian {
        guard chips.count <= Int(HB_STOP_MAX_CHIPS) else { throw .tooManyChips(chips.count, limit: Int(HB_STOP_MAX_CHIPS)) }
        guard enableLines.count <= Int(HB_STOP_MAX_LINES) else { throw .tooManyLines(enableLines.count, limit: Int(HB_STOP_MAX_LINES)) }
        let steps = chips.flatMap(\.cSteps)
        var handle: OpaquePointer?
        let error = withLines(enableLines) { lines in
            steps.withUnsafeBufferPointer { buffer in
                hb_guardian_start(buffer.baseAddress, buffer.count, lines.baseAddress, lines.count, recordDescriptor, &handle)
            }
        }
        guard error == 0, let handle else { throw .start(error == 0 ? .noMemory : Errno(rawValue: error)) }
        return CrashGuardian(handle: handle)
    }

    /// The C line list, its paths valid for the duration of `body`.
    private static func withLines<Result>(_ locations: [GPIOLineLocation], _ body: (UnsafeBufferPointer<hb_guardian_line>) -> Result) -> Result {
        func next(_ index: Int, _ lines: [hb_guardian_line]) -> Result {
            guard index < locations.count else { return lines.withUnsafeBufferPointer(body) }
            let location = locations[index]
            return location.chipPath.withCString { path in
                let line = hb_guardian_line(
                    chip_path: path, offset: location.offset,
                    request_fd: location.heldRequest?.descriptor ?? -1, request_uapi: location.heldRequest?.uapiVersion ?? 0
                )
                return next(index + 1, lines + [line])
            }
        }
        return next(0, [])
    }

    /// Ends guarding after an orderly stop: the guardian exits without touching any chip or line and
    /// is reaped within `timeout` (killed and reaped after it). Call it once.
    /// - Throws: `CrashGuardianError.notRunning` when it was gone already (EPIPE: killed, or it had
    ///   stopped the chips), `.didNotExit`, `.unexpectedExit`, `.alreadyEnded`.
    public func disarm(timeout: Duration = exitTimeout) throws(CrashGuardianError) {
        let status = try end(disarming: true, timeout: timeout)
        // -1: SIGCHLD is ignored here, so the kernel reaped it and its status is lost; the disarm
        // byte was delivered (a guardian already gone fails the send with EPIPE).
        guard status == Int32(HB_GUARDIAN_EXIT_DISARMED) || status == -1 else { throw .unexpectedExit(status: status) }
    }

    /// Ends the early-warning thread as this process's death would, so the guardian stops the
    /// chips at once (and again when it ends). For tests.
    func abandonSentinel() {
        if let handle { hb_guardian_abandon_sentinel(handle) }
    }

    /// Ends guarding: with `disarming` the guardian exits touching nothing; without, it stops
    /// everything as if this process had died (what tests check). Returns its exit status
    /// (`HB_GUARDIAN_EXIT_*`, 128 + a signal, or -1 when reaped elsewhere).
    func end(disarming: Bool, timeout: Duration) throws(CrashGuardianError) -> Int32 {
        guard let handle else { throw .alreadyEnded }
        self.handle = nil
        // Rounded up, so a timeout under a millisecond still waits.
        let milliseconds = CInt(clamping: (max(timeout, .zero).nanoseconds + 999_999) / 1_000_000)
        var status: CInt = -1
        let error = hb_guardian_finish(handle, disarming ? 1 : 0, milliseconds, &status)
        guard error != 0 else { return status }
        switch Errno(rawValue: error) {
        case .brokenPipe: throw .notRunning(status: status)
        case .timedOut: throw .didNotExit(after: timeout)
        case let errno: throw .end(errno)
        }
    }
}
