import ActuatorHAL
import Foundation
import HapticRuntime

/// What `boards show` prints: every actuator of a board with what the board file makes of it —
/// for a DRV260x each register derived from the ratings, with its value in units and the
/// formula's inputs — its stored calibration and its power budgets.
struct BoardShowReport: Encodable {
    /// One register (or field) the configuration sets.
    struct Register: Encodable {
        /// The datasheet name: `RATED_VOLTAGE`, or a field such as `CONTROL1.DRIVE_TIME`.
        var name: String
        var address: String
        var value: Int
        /// What the value stands for, in units (`2.00 V rms`).
        var meaning: String
        /// Where it comes from: the board key and the datasheet formula with its inputs.
        var derivation: String
    }

    /// One power transition's budget.
    struct Budget: Encodable {
        var transition: String
        var microseconds: Double
    }

    struct Actuator: Encodable {
        var name: String
        /// `ti,drv2605l at 0x5A on i2c1 (channel 2 of grips), EN GPIO17` or `pcm-actuator on hw:…`.
        var placement: String
        /// The actuator and how it is driven: `LRA, closed loop, 175 Hz`.
        var drive: String
        var registers: [Register]
        /// How RTP_INPUT is read: format, direction and the steps of the rated drive.
        var realtimeInput: String?
        var calibration: CalibrationReport?
        var budgets: [Budget]
        var maximumContinuousDriveMilliseconds: Double?
        var statusPollMilliseconds: Double?
    }

    var board: String
    var source: String
    var description: String?
    var standbyAfterMilliseconds: Double
    var offAfterMilliseconds: Double
    var actuators: [Actuator]

    /// The report of `board`, opened on simulated stand-ins (nothing is touched) for the budgets;
    /// `calibrations` are the results stored for it.
    init(board opened: OpenedBoard, calibrations: CalibrationStore.Contents) throws {
        let board = opened.board
        self.board = board.name
        source = board.source
        description = board.summary
        let timeouts = board.idleTimeouts
        standbyAfterMilliseconds = timeouts.standby.secondsValue * 1000
        offAfterMilliseconds = timeouts.sleep.secondsValue * 1000
        actuators = try board.actuators.map { entry in
            let opened = opened.actuator(named: entry.name)
            let budgets = PowerTransition.allCases.compactMap { transition in
                opened.map { Budget(transition: transition.rawValue, microseconds: TransitionRecord.microseconds($0.actuator.budget(for: transition))) }
            }
            let stored = calibrations.entry(board: board.name, actuator: entry.name)
            var actuator = Actuator(
                name: entry.name, placement: "", drive: "", registers: [], realtimeInput: nil,
                calibration: stored.map(CalibrationReport.init), budgets: budgets,
                maximumContinuousDriveMilliseconds: entry.maximumContinuousDrive.map { $0.secondsValue * 1000 },
                statusPollMilliseconds: entry.statusPollInterval.map { $0.secondsValue * 1000 }
            )
            switch entry.drive {
            case .drv2605(let placement, let configuration):
                actuator.placement = Self.describe(placement)
                actuator.drive = Self.describe(configuration.ratings)
                let values = try DRV2605RegisterValues(configuration: configuration, variant: placement.variant, calibration: stored?.result)
                actuator.registers = Self.registers(values, configuration: configuration, variant: placement.variant)
                let input = values.realtimeInput
                actuator.realtimeInput = "\(input.format) \(input.direction), amplitude 1 = \(input.ratedSteps) of \(input.fullScaleSteps) steps"
            case .pcm(let device, let configuration):
                actuator.placement = "pcm-actuator on \(device), channels \(configuration.channelMap.channels.map { "\($0 + 1)" }.joined(separator: ", ")) of \(configuration.format.channels)"
                let resonance = configuration.resonantFrequency.map { ", \(ContentSummary.number($0)) Hz" } ?? ""
                actuator.drive = "\(configuration.kind), \(configuration.format.sampleRate) Hz, \(configuration.format.periodFrames)-frame periods, at most \(ContentSummary.number(configuration.maximumAmplitude)) of full scale\(resonance)"
            case .evdevForceFeedback(let location, let configuration):
                actuator.placement = "evdev-ff on \(location)"
                let gain = configuration.gain.map { ", gain \(ContentSummary.number($0))" } ?? ", the device's own gain"
                actuator.drive = "\(configuration.kind), effect updates at most \(ContentSummary.number(configuration.updateRate)) per second\(gain); no power states (budgets zero)"
            }
            return actuator
        }
    }

    private static func describe(_ placement: ChipPlacement) -> String {
        let segment = placement.mux.map { " (channel \($0.channel) of \($0.name) at \($0.address))" } ?? ""
        let enable = placement.enableLine.map { ", EN \($0)" } ?? ", EN tied high"
        return "\(placement.variant) at \(placement.address) on \(placement.bus.name) (\(placement.bus.device), \(placement.bus.speedHz / 1000) kHz)\(segment)\(enable)"
    }

    private static func describe(_ ratings: DRV2605Ratings) -> String {
        let frequency = ratings.resonantFrequency.map { ", \(ContentSummary.number($0)) Hz" } ?? ""
        return "\(ratings.kind == .lra ? "LRA" : "ERM"), \(ratings.loop) loop, rated \(volts(ratings.ratedVoltage)), overdrive \(volts(ratings.overdriveVoltage))\(frequency)"
    }

    /// Each register the ratings decide, with its meaning and derivation.
    private static func registers(_ values: DRV2605RegisterValues, configuration: DRV2605Configuration, variant: DRV2605Variant) -> [Register] {
        let ratings = configuration.ratings
        let sample = configuration.sampleTime
        var registers: [Register] = []
        func add(_ name: String, _ register: DRV2605Register, _ value: UInt8, _ meaning: String, _ derivation: String) {
            registers.append(Register(name: name, address: hexByte(register.rawValue), value: Int(value), meaning: meaning, derivation: derivation))
        }

        let rated = Int((ratings.ratedVoltage * 1000).rounded())
        if ratings.kind == .lra, let frequency = ratings.resonantFrequency {
            let volts = (try? DRV2605RatedVoltage.lraVolts(register: values.ratedVoltage, frequency: frequency, sampleTime: sample)) ?? 0
            add("RATED_VOLTAGE", .ratedVoltage, values.ratedVoltage, "\(Self.volts(volts)) rms",
                "vib-rated-mv \(rated); V = 20.58 mV × RATED_VOLTAGE / √(1 − (4 × \(sample) + 300 µs) × \(ContentSummary.number(frequency)) Hz)\(ratings.loop == .open ? "; unused in open loop" : "")")
        } else {
            add("RATED_VOLTAGE", .ratedVoltage, values.ratedVoltage, "\(Self.volts(DRV2605RatedVoltage.ermVoltsPerStep * Double(values.ratedVoltage))) average",
                "vib-rated-mv \(rated); V = 21.18 mV × RATED_VOLTAGE\(ratings.loop == .open ? "; unused in open loop" : "")")
        }
        let overdrive = Int((ratings.overdriveVoltage * 1000).rounded())
        var clamp = "vib-overdrive-mv \(overdrive); V = 21.22 mV × OD_CLAMP"
        if ratings.loop == .open {
            clamp += ratings.kind == .lra
                ? "; open-loop full scale 21.64 mV × OD_CLAMP × √(1 − 800 µs × f) = \(Self.volts(DRV2605OpenLoopFullScale.lraRMSVolts(overdriveClamp: values.overdriveClamp, frequency: DRV2605OpenLoopPeriod.lowestFrequency))) rms at \(ContentSummary.number(DRV2605OpenLoopPeriod.lowestFrequency)) Hz"
                : "; open-loop full scale 21.32 mV × OD_CLAMP = \(Self.volts(DRV2605OpenLoopFullScale.ermAverageVolts(overdriveClamp: values.overdriveClamp))) average"
        }
        add("OD_CLAMP", .overdriveClamp, values.overdriveClamp, "\(Self.volts(DRV2605OverdriveClamp.volts(register: values.overdriveClamp))) peak", clamp)

        let driveTime = DRV2605Field.driveTime.value(in: values.control1)
        if ratings.kind == .lra, let frequency = ratings.resonantFrequency {
            add("CONTROL1.DRIVE_TIME", .control1, driveTime, "\(ContentSummary.number(DRV2605DriveTime.lraMilliseconds(register: driveTime))) ms half period",
                "resonant-frequency-hz \(ContentSummary.number(frequency)): half period \(ContentSummary.number(500 / frequency)) ms; ms = 0.1 × DRIVE_TIME + 0.5")
        } else {
            add("CONTROL1.DRIVE_TIME", .control1, driveTime, "\(ContentSummary.number(Double(driveTime) * 0.2 + 1)) ms back-EMF sampling", "ERM: the reset value; ms = 0.2 × DRIVE_TIME + 1")
        }
        if let period = values.openLoopPeriod {
            add("OL_LRA_PERIOD", .openLoopLRAPeriod, period, "\(ContentSummary.number(DRV2605OpenLoopPeriod.frequency(register: period) ?? 0)) Hz open-loop drive",
                "resonant-frequency-hz; period = 98.46 µs × OL_LRA_PERIOD")
        }
        add("FEEDBACK_CONTROL", .feedbackControl, values.feedbackControl,
            "N_ERM_LRA \(ratings.kind == .lra ? 1 : 0), FB_BRAKE_FACTOR \(configuration.brakeFactor), LOOP_GAIN \(configuration.loopGain), BEMF_GAIN \(DRV2605Field.backEMFGain.value(in: values.feedbackControl))",
            "actuator-mode, feedback-brake-factor, loop-gain; BEMF_GAIN \(values.calibration == nil ? "its reset value until calibrated" : "from the stored calibration")")
        add("CONTROL3", .control3, values.control3,
            "\(ratings.kind == .lra ? "LRA_OPEN_LOOP" : "ERM_OPEN_LOOP") \(ratings.loop == .open ? 1 : 0), DATA_FORMAT_RTP \(configuration.realtimeFormat == .unsigned ? 1 : 0)",
            "loop, rtp-format")
        add("CONTROL2", .control2, values.control2,
            "BIDIR_INPUT \(configuration.inputDirection == .bidirectional ? 1 : 0), SAMPLE_TIME \(sample)", "rtp-input; SAMPLE_TIME its reset value")
        if let library = values.librarySelect {
            let chosen = configuration.effectiveLibrary(on: variant)
            add("LIBRARY_SEL", .librarySelect, library, "ROM library \(chosen.map { "\($0)" } ?? "\(library)")",
                configuration.library == nil ? "the datasheet's choice for these ratings (library-sel not given)" : "library-sel")
        }
        return registers
    }

    private static func volts(_ value: Double) -> String {
        String(format: "%.2f V", value)
    }

    var text: String {
        var lines = ["board \(board) (\(source))\(description.map { ": \($0)" } ?? "")",
                     "power: standby after \(ContentSummary.number(standbyAfterMilliseconds)) ms idle, off after \(ContentSummary.number(offAfterMilliseconds)) ms"]
        for actuator in actuators {
            lines.append("")
            lines.append("\(actuator.name): \(actuator.placement)")
            lines.append("  \(actuator.drive)")
            let width = actuator.registers.map(\.name.count).max() ?? 0
            for register in actuator.registers {
                let name = register.name.padding(toLength: width, withPad: " ", startingAt: 0)
                lines.append("  \(name) \(register.address) = \(String(format: "%3d", register.value)) (\(hexByte(UInt8(register.value)))): \(register.meaning)")
                lines.append("  \(String(repeating: " ", count: width))      from \(register.derivation)")
            }
            if let realtimeInput = actuator.realtimeInput { lines.append("  RTP_INPUT: \(realtimeInput)") }
            lines.append("  calibration: \(actuator.calibration.map(\.text) ?? "none stored (hapticboard calibrate)")")
            lines.append("  budgets: " + actuator.budgets.map { "\($0.transition) \(ContentSummary.number($0.microseconds)) µs" }.joined(separator: ", "))
            var limits: [String] = []
            if let drive = actuator.maximumContinuousDriveMilliseconds { limits.append("continuous drive at most \(ContentSummary.number(drive)) ms") }
            if let poll = actuator.statusPollMilliseconds { limits.append("STATUS read every \(ContentSummary.number(poll)) ms while playing") }
            if !limits.isEmpty { lines.append("  " + limits.joined(separator: "; ")) }
        }
        return lines.joined(separator: "\n")
    }
}
