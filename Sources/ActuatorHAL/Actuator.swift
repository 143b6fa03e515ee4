/// What kind of moving mass an actuator is; decides drive frequency, braking and ROM library.
public enum ActuatorKind: String, Sendable, Hashable, Codable, CaseIterable {
    /// Linear resonant actuator: a mass on a spring, driven by AC near its resonant frequency.
    case lra
    /// Eccentric rotating mass motor, driven by DC.
    case erm
    /// A wide-band voice coil, driven as audio.
    case voiceCoil = "voice-coil"
}

/// Piano's wake / prepare / sleep on real silicon. See the power-state table in the design.
public enum PowerState: String, Sendable, Hashable, Codable, Comparable {
    /// Unpowered (DRV2605: EN low). Registers are not accessible.
    case off
    /// Powered and configured, output stage idle (DRV2605: EN high, MODE.STANDBY = 1).
    case standby
    /// Ready to drive in the mode prepared for the next content (DRV2605: STANDBY = 0).
    case ready

    private var rank: Int {
        switch self {
        case .off: 0
        case .standby: 1
        case .ready: 2
        }
    }

    public static func < (lhs: Self, rhs: Self) -> Bool { lhs.rank < rhs.rank }
}

/// A change between power states; each has a budget (see `Actuator.budget(for:)`).
public enum PowerTransition: String, Sendable, Hashable, Codable, CaseIterable {
    /// off → standby: power up, wait for the chip, verify or re-apply configuration.
    case wake
    /// standby → ready: leave standby in the mode the next content needs.
    case prepare
    /// ready → standby.
    case standby
    /// any → off.
    case sleep
}

/// How content will drive the actuator once it is ready.
public enum DriveMode: String, Sendable, Hashable, Codable {
    /// Trigger effects from the chip's ROM library through its sequencer.
    case romSequence
    /// Stream amplitude values in real time.
    case realtimeAmplitude
    /// Drive as audio through a PCM device.
    case pcm
}

/// One measured power transition against its budget.
public struct PowerTransitionReport: Sendable, Hashable, Codable {
    public var transition: PowerTransition
    public var from: PowerState
    public var to: PowerState
    public var elapsed: Duration
    public var budget: Duration

    public init(transition: PowerTransition, from: PowerState, to: PowerState, elapsed: Duration, budget: Duration) {
        self.transition = transition
        self.from = from
        self.to = to
        self.elapsed = elapsed
        self.budget = budget
    }

    /// Whether the transition took longer than its budget.
    public var overran: Bool { elapsed > budget }
}

/// One slot of a ROM sequencer: an effect from the library or a pause.
public enum SequencerStep: Sendable, Hashable {
    /// A ROM effect id (DRV2605: 1–123).
    case effect(UInt8)
    /// A pause (DRV2605: 10–1270 ms in 10 ms steps).
    case wait(Duration)
}

/// A fault the actuator's driver reported.
public enum ActuatorFault: String, Sendable, Hashable, Codable, CaseIterable {
    case overTemperature = "over-temperature"
    case overCurrent = "over-current"
    case diagnosticFailed = "diagnostic-failed"
    /// The chip's registers are back at their reset values while it should be configured: it was
    /// reset behind the driver's back (a supply dip, ESD) and must be initialised again.
    case registersReset = "registers-reset"
}

/// What an actuator is doing, as read from the hardware.
public struct ActuatorStatus: Sendable, Hashable {
    public var powerState: PowerState
    /// Whether a ROM sequence (or calibration/diagnostic) is running.
    public var isPlaying: Bool
    public var faults: Set<ActuatorFault>

    public init(powerState: PowerState, isPlaying: Bool, faults: Set<ActuatorFault>) {
        self.powerState = powerState
        self.isPlaying = isPlaying
        self.faults = faults
    }
}

/// What the compiler may ask of an actuator.
public struct ActuatorCapabilities: Sendable, Hashable {
    public var kind: ActuatorKind
    /// The ROM effect library selected on the chip, when it has one (DRV2605: not DRV2604).
    public var romLibrary: ROMLibrary?
    /// Whether amplitude can be streamed in real time (DRV2605 RTP mode).
    public var supportsRealtimeAmplitude: Bool
    /// Whether negative amplitude (active braking) is available.
    public var supportsSignedAmplitude: Bool
    /// Whether the actuator is driven as audio.
    public var supportsPCM: Bool
    /// Resonant frequency in hertz (LRA, voice coil).
    public var resonantFrequency: Double?
    /// Whether the drive frequency can be chosen (LRA open loop, PCM) rather than locked to
    /// resonance (LRA closed loop) — decides what sharpness can change.
    public var frequencyAdjustable: Bool
    /// Bus time of one amplitude update: bounds the real-time update rate.
    public var amplitudeUpdateCost: Duration
    /// Bus time of starting a ROM sequence, by the slots it loads.
    public var romTriggerCost: ROMTriggerCost
    /// Longest continuous drive allowed before the runtime forces a stop (overheating guard).
    public var maximumContinuousDrive: Duration?
    /// The steps from zero to full real-time amplitude the hardware can express (DRV2605: the RTP
    /// format's steps up to the rated voltage): the compiler quantises amplitude to them, once, so
    /// the driver writes exactly what was compiled. `nil` for drive without such steps (PCM).
    public var amplitudeSteps: Int?
    /// The highest ROM effect level (a share of the chip's full scale, as `DRV2605ROMEffect`
    /// gives levels) whose sustained drive is the rated voltage: 1 where full scale is the rating
    /// (closed loop), less in open loop, where full scale is the overdrive clamp. The compiler
    /// picks ROM effects for transients that keep every 100 ms within it.
    public var romLevelLimit: Double

    public init(
        kind: ActuatorKind,
        romLibrary: ROMLibrary?,
        supportsRealtimeAmplitude: Bool,
        supportsSignedAmplitude: Bool,
        supportsPCM: Bool,
        resonantFrequency: Double?,
        frequencyAdjustable: Bool,
        amplitudeUpdateCost: Duration,
        maximumContinuousDrive: Duration?,
        amplitudeSteps: Int? = nil,
        romLevelLimit: Double = 1,
        romTriggerCost: ROMTriggerCost? = nil
    ) {
        self.kind = kind
        self.romLibrary = romLibrary
        self.supportsRealtimeAmplitude = supportsRealtimeAmplitude
        self.supportsSignedAmplitude = supportsSignedAmplitude
        self.supportsPCM = supportsPCM
        self.resonantFrequency = resonantFrequency
        self.frequencyAdjustable = frequencyAdjustable
        self.amplitudeUpdateCost = amplitudeUpdateCost
        self.romTriggerCost = romTriggerCost ?? .oneWritePerSlot(amplitudeUpdateCost)
        self.maximumContinuousDrive = maximumContinuousDrive
        self.amplitudeSteps = amplitudeSteps
        self.romLevelLimit = romLevelLimit
    }
}

/// What the runtime drives. Implementations: `DRV2605Actuator` (I2C chip + EN line) and, later,
/// PCM-driven actuators. Every method may throw the driver's typed error; callers must treat any
/// error as "stop and go to standby" (see the safety rules in the design).
public protocol Actuator: AnyObject {
    var name: String { get }
    var capabilities: ActuatorCapabilities { get }
    /// The state the driver last put the actuator in.
    var powerState: PowerState { get }

    /// The budget of a transition: datasheet delays plus the bus cost of its writes.
    func budget(for transition: PowerTransition) -> Duration

    /// off → standby. From standby or ready it does nothing and reports zero time.
    @discardableResult func wake() throws -> PowerTransitionReport
    /// → ready in `mode`, waking first if needed.
    @discardableResult func prepare(for mode: DriveMode) throws -> PowerTransitionReport
    /// Whether `prepare(for: mode)` would do nothing now: ready, in that mode.
    func isPrepared(for mode: DriveMode) -> Bool
    /// → standby (stops any output first).
    @discardableResult func standby() throws -> PowerTransitionReport
    /// → off (stops any output and enters standby first).
    @discardableResult func sleep() throws -> PowerTransitionReport

    /// Plays up to the sequencer's length of ROM effects and waits.
    func play(effects: [SequencerStep]) throws
    /// Sets real-time amplitude, -1…1 (negative brakes where supported; otherwise clamped at 0).
    func setAmplitude(_ amplitude: Double) throws
    /// Chooses the drive frequency in hertz (open-loop LRA, PCM carrier). Actuators locked to
    /// resonance keep the default, which throws `ActuatorError.unsupported`.
    func setDriveFrequency(_ hertz: Double) throws
    /// Writes interleaved PCM samples for an audio-driven actuator. Actuators without PCM keep
    /// the default, which throws `ActuatorError.unsupported`.
    func writePCM(_ samples: [Int16]) throws
    /// The same, for a block due to start at `start` (its deadline): a stream that ran dry restarts
    /// so the block starts then even when the write comes late. The default ignores `start`.
    func writePCM(_ samples: [Int16], startingAt start: MonotonicInstant) throws
    /// How long after `writePCM` its first sample leaves the output: the engine writes each PCM
    /// block this much ahead of its deadline. Actuators without PCM keep the default, zero.
    var pcmOutputLatency: Duration { get }
    /// How long before its deadline `stop()` must be called for the output to stop on it: the bus
    /// time of the stop's writes (DRV2605), zero where stopping takes effect at the call (a PCM
    /// drop, which would cut drive still due if issued early).
    var stopLead: Duration { get }
    /// Stops any output at once (sequence, real-time or PCM) without leaving the current power state.
    func stop() throws
    /// Reads the hardware's view: power, playing, faults.
    func status() throws -> ActuatorStatus
    /// → off without using the bus, for when the bus has timed out (stuck): a DRV2605 drops EN.
    /// Nil where the actuator has no such way or is already off; then stop it as usual. The
    /// default has none.
    func powerOffWithoutTheBus() -> PowerTransitionReport?
}

extension Actuator {
    /// Default for actuators with one drive mode, which `prepare` checks.
    public func isPrepared(for mode: DriveMode) -> Bool { powerState == .ready }

    /// Default for actuators that cannot stop without their bus or device.
    public func powerOffWithoutTheBus() -> PowerTransitionReport? { nil }

    /// Default for actuators whose drive frequency is fixed: refuse rather than ignore.
    public func setDriveFrequency(_ hertz: Double) throws {
        throw ActuatorError.unsupported(actuator: name, operation: "setting the drive frequency (\(hertz) Hz)")
    }

    /// Default for actuators without an audio path: nothing is queued ahead.
    public var pcmOutputLatency: Duration { .zero }

    /// Default for actuators without an audio path: refuse rather than drop the samples.
    public func writePCM(_ samples: [Int16]) throws {
        throw ActuatorError.unsupported(actuator: name, operation: "PCM output (\(samples.count) samples)")
    }

    /// Default: `writePCM(_:)`, for actuators whose start cannot be placed.
    public func writePCM(_ samples: [Int16], startingAt start: MonotonicInstant) throws {
        try writePCM(samples)
    }
}
