/// An actuator driven as audio: an LRA or voice coil behind an I2S/class-D amplifier, or the
/// haptic channels of a USB audio interface.
///
/// Power states map onto the stream: off = device closed; standby = device open and configured,
/// nothing queued; ready = accepting drive (the stream runs from the first write). Drive samples
/// are mono, one per frame (the compiler's `.pcm` commands); they are scaled by the maximum
/// amplitude and copied to every channel of the channel map, the device's other channels silent.
///
/// Timing: the stream runs `pcmOutputLatency` (three periods) behind the writes. A write to a
/// stopped stream first queues silence up to then (measured with the device's delay), so a block
/// written `pcmOutputLatency` before its deadline starts on it; blocks written on that schedule
/// then follow back to back with the device queue never running dry between them.
public final class PCMActuator: Actuator {
    /// Opens the device stream; called on each wake, so a sleeping actuator holds no device.
    public typealias DeviceOpener = () throws(PCMError) -> any PCMSink

    /// Budget for opening and configuring the device: USB audio interfaces take tens of
    /// milliseconds to accept hardware parameters; I2S codecs less.
    public static let wakeBudget = Duration.milliseconds(50)
    /// Budget for dropping what is queued (`snd_pcm_drop`: one ioctl; a USB interface also
    /// cancels its in-flight URBs, a millisecond at most).
    public static let standbyBudget = Duration.milliseconds(1)
    /// Budget for dropping and closing the device: closing a USB interface waits for its
    /// endpoints to stop, a few milliseconds.
    public static let sleepBudget = Duration.milliseconds(5)

    /// The actuator's name in the board file.
    public let name: String
    /// Kind, channels, resonance and amplitude cap.
    public let configuration: PCMActuatorConfiguration
    /// PCM drive, no ROM, no real-time amplitude (see `PCMActuatorConfiguration.capabilities`).
    public var capabilities: ActuatorCapabilities { configuration.capabilities }
    /// Three periods, the four-period buffer less the block being written: the writer may wake
    /// up to two periods late before the drive runs dry (the kernel lane's emulated board, on a
    /// loaded host, ran the timing thread 21 ms — two of its periods — late and split a buzz
    /// behind a two-period latency).
    public var pcmOutputLatency: Duration { configuration.format.duration(ofFrames: latencyFrames) }
    private var latencyFrames: Int { 3 * configuration.format.periodFrames }
    /// One period: the longest drive block that, written `pcmOutputLatency` ahead of its start,
    /// fits the four-period buffer beside what is still queued. A longer block would make the
    /// write wait for room on the engine's timing thread, delaying everything else it serves (the
    /// kernel lane's Loopback capture showed sound underrunning behind 10 ms blocks).
    public var pcmBlockDuration: Duration { periodDuration }
    /// Off (device closed), standby (open, idle) or ready (accepting drive).
    public private(set) var powerState: PowerState = .off
    private let openDevice: DeviceOpener
    private let clock: any MonotonicClock
    private var sink: (any PCMSink)?

    /// An actuator that opens its device with `openDevice` when woken.
    public init(name: String, configuration: PCMActuatorConfiguration, clock: any MonotonicClock, openDevice: @escaping DeviceOpener) {
        self.name = name
        self.configuration = configuration
        self.clock = clock
        self.openDevice = openDevice
    }

    /// Wake: the device open time; prepare: one period plus the output latency, so preparing
    /// ahead by it leaves the stream ready before the first block is written; standby: dropping
    /// the queue; sleep: dropping it and closing the device.
    public func budget(for transition: PowerTransition) -> Duration {
        switch transition {
        case .wake: Self.wakeBudget
        case .prepare: periodDuration + pcmOutputLatency
        case .standby: Self.standbyBudget
        case .sleep: Self.sleepBudget
        }
    }

    private var periodDuration: Duration {
        configuration.format.duration(ofFrames: configuration.format.periodFrames)
    }

    /// Opens the device (off → standby).
    /// - Throws: the device's `PCMError`, or `PCMActuatorError.channelMismatch`.
    @discardableResult public func wake() throws -> PowerTransitionReport {
        try transition(.wake, to: .standby) {
            guard sink == nil else { return }
            let opened = try openDevice()
            guard opened.format.channels == configuration.channelMap.deviceChannels else {
                throw PCMActuatorError.channelMismatch(actuator: name, device: opened.name, deviceChannels: opened.format.channels, mapChannels: configuration.channelMap.deviceChannels)
            }
            sink = opened
        }
    }

    /// → ready for PCM drive, opening the device first when off.
    /// - Throws: `PCMActuatorError.unsupportedMode` for any mode but `.pcm`, or a wake error.
    @discardableResult public func prepare(for mode: DriveMode) throws -> PowerTransitionReport {
        guard mode == .pcm else { throw PCMActuatorError.unsupportedMode(actuator: name, mode: mode) }
        if powerState == .off { try wake() }
        return try transition(.prepare, to: .ready) {}
    }

    /// Drops queued drive and keeps the device open (→ standby).
    @discardableResult public func standby() throws -> PowerTransitionReport {
        try transition(.standby, to: .standby) {
            try sink?.stop()
        }
    }

    /// Drops queued drive and closes the device (→ off). The device is let go even when the drop
    /// fails (it was unplugged): the actuator is off, and the next wake opens the device afresh.
    @discardableResult public func sleep() throws -> PowerTransitionReport {
        do {
            return try transition(.sleep, to: .off) {
                defer { sink = nil }
                try sink?.stop()
            }
        } catch {
            powerState = .off
            throw error
        }
    }

    /// Runs `body` as `transition` to `target`, timed against its budget. A transition to a
    /// lower or equal state from below (wake from standby) does nothing, as the protocol says.
    private func transition(_ transition: PowerTransition, to target: PowerState, _ body: () throws -> Void) throws -> PowerTransitionReport {
        let from = powerState
        let start = clock.now
        let isNoOp = (transition == .wake && from >= .standby) || (transition == .prepare && from == .ready) || (transition == .sleep && from == .off)
        if !isNoOp {
            try body()
            powerState = target
        }
        let elapsed = isNoOp ? Duration.zero : clock.now - start
        return PowerTransitionReport(transition: transition, from: from, to: powerState, elapsed: elapsed, budget: budget(for: transition))
    }

    /// A PCM actuator has no ROM sequencer.
    public func play(effects: [SequencerStep]) throws {
        throw ActuatorError.unsupported(actuator: name, operation: "ROM effects")
    }

    /// Zero stops the drive; any other level needs a waveform, which comes through `writePCM`.
    public func setAmplitude(_ amplitude: Double) throws {
        guard amplitude == 0 else {
            throw ActuatorError.unsupported(actuator: name, operation: "real-time amplitude (drive it with PCM)")
        }
        try stop()
    }

    /// Queues `samples` (mono drive, one per frame, full scale ±32767) on the mapped channels,
    /// scaled by the maximum amplitude; when the stream had stopped, they start `pcmOutputLatency`
    /// from now. Blocks while the device buffer is full.
    /// - Throws: `PCMActuatorError.notReady` when off, or the device's `PCMError`.
    public func writePCM(_ samples: [Int16]) throws {
        try writePCM(samples, startingAt: clock.now + pcmOutputLatency)
    }

    /// The same; when the stream had stopped, the samples start at `start` if it is still ahead
    /// (see `restartLeadIn(dueAt:on:)`), so a write that came late does not start late too.
    public func writePCM(_ samples: [Int16], startingAt start: MonotonicInstant) throws {
        // From standby a write readies the stream itself (no I/O), as the DRV2605's writes prepare
        // their mode: the engine issues a block its output latency early, and the prepare ahead
        // of it by a lead learned from earlier prepares, which cost nothing and so shrink it.
        if powerState == .standby { try prepare(for: .pcm) }
        guard powerState == .ready, let sink else { throw PCMActuatorError.notReady(actuator: name, state: powerState) }
        let scale = configuration.maximumAmplitude
        var signal = try sink.queuedFrames() == 0 ? try restartLeadIn(dueAt: start, on: sink) : []
        signal += samples.map { Int16((Double($0) * scale).rounded()) }
        _ = try sink.write(configuration.channelMap.interleave(signal))
    }

    /// Restarts the stopped stream with a period of silence, then returns the silence that puts the
    /// next frame written at `due`, measured from the device's own delay: a device may join a
    /// restarted stream at a boundary of its own (ALSA dshare aligns to the shared stream's
    /// period), so counting written frames alone could start the drive up to a period off.
    private func restartLeadIn(dueAt due: MonotonicInstant, on sink: any PCMSink) throws -> [Int16] {
        let format = sink.format
        _ = try sink.write(configuration.channelMap.interleave([Int16](repeating: 0, count: format.periodFrames)))
        // From the delay as of the device's last position update, not as read now: read between
        // two updates it still counts frames that have left (see `PCMSink.queueReading`).
        let reading = try sink.queueReading()
        let nextFramePlays = (reading.measuredAt ?? clock.now) + format.duration(ofFrames: reading.frames)
        let gap = (due - nextFramePlays).nanoseconds
        let frames = gap <= 0 ? 0 : Int((Double(gap) * Double(format.sampleRate) / 1e9).rounded())
        return [Int16](repeating: 0, count: min(frames, latencyFrames))
    }

    /// A drop takes effect at the call.
    public var stopLead: Duration { .zero }

    /// Drops whatever is queued; the stream stays open and ready.
    public func stop() throws {
        try sink?.stop()
    }

    /// Playing while drive is still queued on the device; a PCM path reports no faults.
    public func status() throws -> ActuatorStatus {
        let queued = try sink?.queuedFrames() ?? 0
        return ActuatorStatus(powerState: powerState, isPlaying: queued > 0, faults: [])
    }
}
