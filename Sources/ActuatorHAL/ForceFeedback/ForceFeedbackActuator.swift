/// How hapticboard drives an existing force-feedback device (board `compatible: evdev-ff`).
public struct ForceFeedbackActuatorConfiguration: Sendable, Hashable {
    /// What moves: a rumble motor is an ERM; a vibra with a known resonance may be an LRA.
    public var kind: ActuatorKind
    /// The resonance of an LRA, when known; also the period of `FF_PERIODIC` drive.
    public var resonantFrequency: Double?
    /// Most effect updates per second: the compiler renders amplitude at this rate, so the device
    /// (often behind USB or Bluetooth) is never flooded. Default 100.
    public var updateRate: Double
    /// The device gain to set at wake, 0…1; nil leaves the device's own (a desktop or game may
    /// have set it). On a device without `FF_GAIN` it scales every magnitude instead.
    public var gain: Double?

    public static let defaultUpdateRate = 100.0
    public static let updateRates = 1.0...1000.0

    public init(kind: ActuatorKind = .erm, resonantFrequency: Double? = nil, updateRate: Double = ForceFeedbackActuatorConfiguration.defaultUpdateRate, gain: Double? = nil) {
        self.kind = kind
        self.resonantFrequency = resonantFrequency
        self.updateRate = updateRate
        self.gain = gain
    }
}

/// The effect type an actuator uses on a device: rumble where the device has it (what pads and
/// vibras offer), else a sine `FF_PERIODIC`, else `FF_CONSTANT`.
public enum ForceFeedbackDrive: String, Sendable, Hashable {
    case rumble, periodic, constant

    /// The first of rumble, sine periodic and constant that `capabilities` offer; nil for none.
    public init?(capabilities: ForceFeedbackCapabilities) {
        if capabilities.effectTypes.contains(.rumble) {
            self = .rumble
        } else if capabilities.effectTypes.contains(.periodic), capabilities.waveforms.contains(.sine) {
            self = .periodic
        } else if capabilities.effectTypes.contains(.constant) {
            self = .constant
        } else {
            return nil
        }
    }

    /// Why a device without any of them cannot be driven.
    public static let requirement = "has none of FF_RUMBLE, FF_PERIODIC with FF_SINE, or FF_CONSTANT, which hapticboard drives"
}

/// An actuator that is an existing force-feedback input device (a pad's rumble motors, a phone
/// vibra, the kernel's drv260x): content's amplitude becomes one effect of the device, uploaded
/// again (`EVIOCSFF`, same slot) whenever the compiled amplitude changes, at most `updateRate`
/// times a second, and played while the amplitude is above zero.
///
/// Power: the device has no power states hapticboard can see, so every budget is zero. Wake
/// uploads a silent effect (taking one of the device's `ff_effects_max` slots, or failing with
/// ENOSPC when others hold all of them) and sets the board's gain; standby stops it; sleep erases
/// it, freeing the slot. Closing the device (or the process ending) makes the kernel erase it too.
public final class ForceFeedbackActuator: Actuator {
    public let name: String
    public let configuration: ForceFeedbackActuatorConfiguration
    /// The device driven.
    public let sink: any ForceFeedbackSink
    /// The effect type used on it.
    public let drive: ForceFeedbackDrive
    public private(set) var powerState: PowerState = .off
    /// The device slot of the effect, from wake to sleep.
    public private(set) var effectID: Int16?
    /// Effects uploaded since the actuator was made (each amplitude change is one).
    public private(set) var uploadCount = 0
    private var amplitude = 0.0
    private var isPlaying = false

    /// The period of `FF_PERIODIC` drive when no resonance is given: 10 ms (100 Hz).
    public static let fallbackPeriodMilliseconds: UInt16 = 10

    /// An actuator on `sink`.
    /// - Throws: `ForceFeedbackError.notForceFeedback` when the device offers nothing to drive.
    public init(name: String, sink: any ForceFeedbackSink, configuration: ForceFeedbackActuatorConfiguration) throws(ForceFeedbackError) {
        guard let drive = ForceFeedbackDrive(capabilities: sink.capabilities) else {
            throw .notForceFeedback(device: "\(sink.path) ('\(sink.name)')", reason: ForceFeedbackDrive.requirement)
        }
        self.name = name
        self.sink = sink
        self.configuration = configuration
        self.drive = drive
    }

    public var capabilities: ActuatorCapabilities {
        ActuatorCapabilities(
            kind: configuration.kind, romLibrary: nil, supportsRealtimeAmplitude: true, supportsSignedAmplitude: false, supportsPCM: false,
            resonantFrequency: configuration.resonantFrequency, frequencyAdjustable: false,
            // The compiler keeps amplitude updates to a quarter of the "bus": stating a cost of a
            // quarter of the update interval makes it render at exactly `updateRate`.
            amplitudeUpdateCost: .seconds(0.25 / configuration.updateRate), maximumContinuousDrive: nil, amplitudeSteps: 255
        )
    }

    /// Zero: nothing hapticboard does to the device has a known cost beyond its own ioctls.
    public func budget(for transition: PowerTransition) -> Duration { .zero }

    public var stopLead: Duration { .zero }

    /// Off → standby: uploads the silent effect and sets the gain.
    @discardableResult public func wake() throws -> PowerTransitionReport {
        let from = powerState
        if from == .off {
            if let gain = configuration.gain, sink.capabilities.supportsGain {
                try sink.setGain(UInt16((min(1, max(0, gain)) * 0xFFFF).rounded()))
            }
            amplitude = 0
            effectID = try sink.upload(effect(amplitude: 0, id: -1))
            uploadCount += 1
            powerState = .standby
        }
        return report(.wake, from: from)
    }

    /// → ready for real-time amplitude, the only mode a device has.
    @discardableResult public func prepare(for mode: DriveMode) throws -> PowerTransitionReport {
        guard mode == .realtimeAmplitude else { throw ActuatorError.unsupported(actuator: name, operation: "\(mode) drive") }
        let from = powerState
        if from == .off { try wake() }
        powerState = .ready
        return report(.prepare, from: from)
    }

    /// → standby: the effect stops.
    @discardableResult public func standby() throws -> PowerTransitionReport {
        let from = powerState
        try stop()
        if powerState == .ready { powerState = .standby }
        return report(.standby, from: from)
    }

    /// → off: the effect stops and is erased, freeing its slot. The erase is made even when the
    /// stop fails (the kernel stops an effect it erases); once it is erased, or the device is gone,
    /// the actuator is off and the next wake uploads afresh. An erase the device refused leaves the
    /// effect this actuator's to stop and erase on the next try. The first failure is rethrown.
    @discardableResult public func sleep() throws -> PowerTransitionReport {
        let from = powerState
        var failure: (any Error)?
        do { try stop() } catch { failure = error }
        if let id = effectID {
            do throws(ForceFeedbackError) {
                try sink.erase(effectID: id)
            } catch .deviceGone {
                // Nothing is left to stop or erase.
            } catch {
                throw failure ?? error
            }
            effectID = nil
            isPlaying = false
            amplitude = 0
        }
        powerState = .off
        if let failure { throw failure }
        return report(.sleep, from: from)
    }

    public func play(effects: [SequencerStep]) throws {
        throw ActuatorError.unsupported(actuator: name, operation: "ROM effects")
    }

    /// Uploads the effect at `amplitude` (0…1, negative is 0) when it changed, and plays it; 0 stops
    /// it. Drive prepares the actuator first when it is not ready (as a DRV2605's does): with zero
    /// budgets a prepare and the first level fall due at one instant.
    public func setAmplitude(_ amplitude: Double) throws {
        let level = min(1, max(0, amplitude.isNaN ? 0 : amplitude))
        guard level > 0 else {
            try stop()
            return
        }
        if powerState != .ready { try prepare(for: .realtimeAmplitude) }
        guard let id = effectID else { throw ForceFeedbackActuatorError.notReady(actuator: name, state: powerState) }
        guard level != self.amplitude || !isPlaying else { return }
        _ = try sink.upload(effect(amplitude: level, id: id))
        self.amplitude = level
        uploadCount += 1
        if !isPlaying {
            try sink.play(effectID: id, count: 1)
            isPlaying = true
        }
    }

    /// Stops the effect (`EV_FF` with count 0) when it plays. It counts as playing until the
    /// device took the stop: the effect is endless, so a stop that failed must be tried again by
    /// the next one (the engine's stop, then standby, when it makes the actuator safe).
    public func stop() throws {
        guard isPlaying, let id = effectID else { return }
        try sink.play(effectID: id, count: 0)
        isPlaying = false
        amplitude = 0
    }

    /// Input devices report no faults; a device that went away throws `ForceFeedbackError.deviceGone`,
    /// so the engine's status poll stops playback on an unplug even while the level holds.
    public func status() throws -> ActuatorStatus {
        try sink.checkPresent()
        return ActuatorStatus(powerState: powerState, isPlaying: isPlaying, faults: [])
    }

    /// The effect that drives the device at `amplitude`: endless (length 0), so it plays until
    /// stopped; the board's gain applied where the device has no `FF_GAIN`.
    func effect(amplitude: Double, id: Int16) -> ForceFeedbackEffect {
        var level = amplitude
        if let gain = configuration.gain, !sink.capabilities.supportsGain { level *= min(1, max(0, gain)) }
        let kind: ForceFeedbackEffect.Kind
        switch drive {
        case .rumble:
            let magnitude = UInt16((level * 0xFFFF).rounded())
            kind = .rumble(strong: magnitude, weak: magnitude)
        case .periodic:
            let period = configuration.resonantFrequency.map { UInt16(max(1, min(1000, (1000 / $0).rounded()))) } ?? Self.fallbackPeriodMilliseconds
            kind = .periodic(.init(waveform: .sine, period: period, magnitude: Int16((level * 0x7FFF).rounded())))
        case .constant:
            kind = .constant(level: Int16((level * 0x7FFF).rounded()), envelope: .none)
        }
        return ForceFeedbackEffect(id: id, kind: kind, length: 0)
    }

    private func report(_ transition: PowerTransition, from: PowerState) -> PowerTransitionReport {
        PowerTransitionReport(transition: transition, from: from, to: powerState, elapsed: .zero, budget: .zero)
    }
}

/// What `ForceFeedbackActuator` refuses.
public enum ForceFeedbackActuatorError: Error, Sendable, Hashable, CustomStringConvertible {
    /// Drive was asked of an actuator that holds no effect slot.
    case notReady(actuator: String, state: PowerState)

    public var description: String {
        switch self {
        case .notReady(let actuator, let state): "actuator \(actuator): amplitude set while \(state), not ready"
        }
    }
}
