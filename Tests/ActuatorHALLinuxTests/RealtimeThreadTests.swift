import ActuatorHAL
@testable import ActuatorHALLinux
import SystemPackage
import XCTest

final class RealtimeThreadTests: XCTestCase {
    func testWarningNamesWhatWasRefusedAndHowToAllowIt() throws {
        var setup = RealtimeSetup(priority: 80)
        XCTAssertTrue(setup.isComplete)
        XCTAssertNil(setup.warning)
        setup.schedulingError = .notPermitted
        setup.priorityLimit = 0
        setup.memoryLockError = .noMemory
        XCTAssertFalse(setup.isComplete)
        let warning = try XCTUnwrap(setup.warning)
        XCTAssertFalse(warning.contains("\n"), "one line")
        for expected in ["SCHED_FIFO 80", "RLIMIT_RTPRIO 0", "ulimit -r 80", "LimitRTPRIO=80", "mlockall", "LimitMEMLOCK=", "CAP_SYS_NICE"] {
            XCTAssertTrue(warning.contains(expected), "\(expected) missing from: \(warning)")
        }
    }

    func testOnlyTheRefusedStepIsNamed() throws {
        var setup = RealtimeSetup(priority: 50)
        setup.memoryLockError = .notPermitted
        let warning = try XCTUnwrap(setup.warning)
        XCTAssertTrue(warning.contains("LimitMEMLOCK="))
        XCTAssertFalse(warning.contains("SCHED_FIFO"))
    }
}

final class RealtimeThreadPlacementTests: XCTestCase {
    /// Configures a new thread with `setup` and returns what it reported and the CPUs the kernel
    /// then allowed the thread (`Cpus_allowed_list` of /proc/thread-self/status).
    private func configureOnNewThread(_ setup: RealtimeThread) -> (RealtimeSetup, String?) {
        let done = DispatchSemaphore(value: 0)
        nonisolated(unsafe) var result: (RealtimeSetup, String?)?
        let thread = Thread {
            let reported = setup.configureCurrentThread()
            result = (reported, Self.allowedCPUs(in: "/proc/thread-self/status"))
            done.signal()
        }
        thread.start()
        done.wait()
        return result!
    }

    /// The `Cpus_allowed_list` of a /proc status file, such as "0-1".
    private static func allowedCPUs(in statusFile: String) -> String? {
        let field = "Cpus_allowed_list:"
        let status = try? String(contentsOfFile: statusFile, encoding: .utf8)
        return status?.split(separator: "\n").first { $0.hasPrefix(field) }.map { $0.dropFirst(field.count).trimmingCharacters(in: .whitespaces) }
    }

    func testKeepsTheThreadToTheCPUAskedFor() throws {
        // The last CPU: on a machine of one CPU the check is weak (nothing else was allowed), elsewhere
        // the thread is narrowed from every CPU to that one.
        let cpu = ProcessInfo.processInfo.activeProcessorCount - 1
        // Only the CPU is asked for: priority 0 is SCHED_FIFO's invalid value for ordinary users too,
        // so scheduling is refused whatever the permissions, and memory is not locked.
        let (setup, allowed) = configureOnNewThread(RealtimeThread(priority: 0, lockingMemory: false, cpu: cpu))
        XCTAssertEqual(setup.cpu, cpu)
        XCTAssertNil(setup.affinityError)
        XCTAssertEqual(allowed, "\(cpu)")
    }

    func testACPUThatDoesNotExistIsReportedNotFatal() throws {
        let (setup, _) = configureOnNewThread(RealtimeThread(priority: 0, lockingMemory: false, cpu: 1000))
        XCTAssertEqual(setup.affinityError, .invalidArgument)
        let warning = try XCTUnwrap(setup.warning)
        XCTAssertTrue(warning.contains("CPU 1000"), warning)
        XCTAssertTrue(warning.contains("taskset"), warning)
    }

    func testNoCPUAsksForNone() {
        let (setup, allowed) = configureOnNewThread(RealtimeThread(priority: 0, lockingMemory: false))
        XCTAssertNil(setup.cpu)
        XCTAssertNil(setup.affinityError)
        XCTAssertEqual(allowed, Self.allowedCPUs(in: "/proc/self/status"), "left as the process allows")
    }
}
