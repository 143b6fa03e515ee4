import ActuatorHAL
import FoundationEssentials

/// A board as its board file describes it — actuators, the chips or PCM devices in front of them,
/// buses and switches, power timeouts, a sound output — checked and ready to open.
///
/// ```swift
/// import BoardFiles   // board files: Board(contentsOf:), Board.named(_:)
/// let board = try Board(contentsOf: URL(fileURLWithPath: "Boards/pi-drv2605l.yml"))
/// let opened = try board.open(on: LinuxBoardHardware())   // or SimulatedBoardHardware()
/// defer { opened.close() }
/// ```
///
/// A board that does not check is never opened: every problem of its file is reported at once,
/// each located by file, line, column and key (`BoardError.invalid`).
public struct Board {
    /// The name `hapticboard --board` takes for the built-in simulated board.
    public static let simName = "sim"

    let file: BoardFile
    /// Every actuator as the file configures it, in board order.
    public let actuators: [ActuatorEntry]

    /// The board's name (`board:`).
    public var name: String { file.description.board }
    /// Its one-line description, if the file gives one.
    public var summary: String? { file.description.description }
    /// Where it was read from: a path, or `built-in board 'sim'`.
    public var source: String { file.path }
    /// Every actuator's name, in board order.
    public var actuatorNames: [String] { actuators.map(\.name) }
    /// The sound output's PCM device (`audio: device:`), if the board has one.
    public var audioDevice: String? { file.description.audio?.output.device }

    /// Whether every bus and PCM device the board names is `sim`: opening it touches no hardware
    /// (open it on `SimulatedBoardHardware`).
    public var isSimulated: Bool {
        let description = file.description
        let devices = description.buses.map(\.device) + description.actuators.compactMap(\.pcm?.device) + [description.audio?.output.device].compactMap { $0 }
            + description.actuators.compactMap { $0.evdev.map { $0.device ?? "" } }
        return devices.allSatisfy { $0 == Self.simName }
    }

    /// The power timeouts the file gives, the engine's defaults for any it leaves out.
    public var idleTimeouts: IdleTimeouts {
        let defaults = IdleTimeouts.default
        let power = file.description.power
        return IdleTimeouts(
            standby: power?.standbyTimeoutMs.map { .milliseconds($0) } ?? defaults.standby,
            sleep: power?.offTimeoutMs.map { .milliseconds($0) } ?? defaults.sleep
        )
    }

    /// Reads a board's description with `read` and checks it; a board with any problem is not made.
    package init(reading read: () throws(BoardFileError) -> BoardFile) throws(BoardError) {
        let file: BoardFile
        do {
            file = try read()
        } catch {
            throw .invalid([error])
        }
        try self.init(checking: file)
    }

    /// Checks a board's description; a board with any problem is not made.
    init(checking file: BoardFile) throws(BoardError) {
        let problems = BoardRules(file: file).problems()
        guard problems.isEmpty else { throw .invalid(problems) }
        self.file = file
        do {
            actuators = try file.description.actuators.indices.map { index throws(BoardFileError) in try ActuatorEntry(file: file, index: index) }
        } catch {
            throw .invalid([error])
        }
    }

    /// The built-in simulated board: one DRV2605L driving a 175 Hz, 2.0 V rms LRA on a simulated
    /// 400 kHz bus (`Boards/sim.yml` documents it).
    public static var sim: Board {
        do {
            return try Board(checking: BuiltInBoard.sim())
        } catch {
            // The text is a constant the tests check; only an edit of it can get here.
            preconditionFailure("the built-in board does not check: \(error)")
        }
    }
}

extension Board {
    /// One actuator as the board file configures it.
    public struct ActuatorEntry: Sendable {
        /// What drives it.
        public enum Drive: Sendable {
            /// A DRV2605-class chip at `placement`, configured from the actuator's ratings.
            case drv2605(ChipPlacement, DRV2605Configuration)
            /// An LRA or voice coil behind an amplifier on PCM `device`.
            case pcm(device: String, PCMActuatorConfiguration)
            /// An existing force-feedback input device (`compatible: evdev-ff`).
            case evdevForceFeedback(InputDeviceLocation, ForceFeedbackActuatorConfiguration)
        }

        /// Its name in the board file.
        public var name: String
        public var drive: Drive
        /// `max-continuous-drive-ms`; nil leaves the actuator's own limit.
        public var maximumContinuousDrive: Duration?
        /// `status-poll-ms` (the engine's default when absent); nil for none, and for a PCM actuator.
        public var statusPollInterval: Duration?

        init(file: BoardFile, index: Int) throws(BoardFileError) {
            let entry = file.description.actuators[index]
            name = entry.name
            maximumContinuousDrive = entry.maxContinuousDriveMs.map { .milliseconds($0) }
            if let pcm = entry.pcm {
                drive = .pcm(device: pcm.device, try file.pcmActuatorConfiguration(forActuatorAt: index))
                statusPollInterval = nil
            } else if let evdev = entry.evdev {
                let configuration = ForceFeedbackActuatorConfiguration(
                    kind: ActuatorKind(rawValue: entry.actuatorMode.lowercased()) ?? .erm, resonantFrequency: entry.resonantFrequencyHz,
                    updateRate: evdev.updateRateHz ?? ForceFeedbackActuatorConfiguration.defaultUpdateRate, gain: evdev.gain
                )
                drive = .evdevForceFeedback(evdev.device.map(InputDeviceLocation.path) ?? .name(evdev.deviceName ?? ""), configuration)
                // Polled so an unplugged device stops playback even while the level holds.
                statusPollInterval = entry.statusPollMs.map { $0 > 0 ? .milliseconds($0) : nil } ?? EngineActuator.defaultStatusPollInterval
            } else {
                drive = .drv2605(try file.chipPlacement(ofActuatorAt: index), try file.drv2605Configuration(forActuatorAt: index))
                statusPollInterval = entry.statusPollMs.map { $0 > 0 ? .milliseconds($0) : nil } ?? EngineActuator.defaultStatusPollInterval
            }
        }
    }
}

/// Why a board could not be found, checked or opened.
public enum BoardError: Error, CustomStringConvertible {
    /// The name is neither `sim`, a file, nor a file in the board folders.
    case notFound(String, searched: [String])
    /// The board file has problems, every one of them, in file order.
    case invalid([BoardFileError])

    public var description: String {
        switch self {
        case .notFound(let name, let searched):
            "no board '\(name)': not '\(Board.simName)' and no file at \(searched.joined(separator: " or "))"
        case .invalid(let problems):
            problems.map(\.description).joined(separator: "\n")
        }
    }
}
