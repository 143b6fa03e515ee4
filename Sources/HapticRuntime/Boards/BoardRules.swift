import ActuatorHAL
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// What a well-formed board file must satisfy beyond its shape: names that resolve, values in the
/// ranges the chips accept, and no two devices answering at one place on a bus. Every rule
/// reports through ``BoardFile/problem(at:_:)`` so the user gets file, line, column and key.
struct BoardRules {
    /// DRV260x parts a board may name, in devicetree `compatible` spelling.
    static let hapticDriverCompatibles: Set<String> = ["ti,drv2604", "ti,drv2604l", "ti,drv2605", "ti,drv2605l"]
    /// DRV2604 parts have RAM for waveforms instead of the ROM effect library.
    static let romlessCompatibles: Set<String> = ["ti,drv2604", "ti,drv2604l"]
    static let muxCompatible = "ti,tca9548a"
    /// The DRV260x address is fixed in silicon (DRV2605L datasheet, "I2C Bus Operation").
    static let hapticDriverAddress = 0x5A
    /// TCA9548A address pins A2..A0 select 0x70...0x77.
    static let muxAddresses = 0x70...0x77
    /// f_SCL maximum of the DRV260x and of the TCA9548A.
    static let maximumBusSpeedHz = 400_000
    /// RATED_VOLTAGE and OD_CLAMP are 8-bit registers of ≈ 21 mV steps, so about 5.4 V is the
    /// most either can express; the driver checks the exact register value.
    static let driveMillivolts = 1...5_400
    /// The span of resonant frequencies LRAs sold for these drivers cover, with margin; outside it
    /// a value is almost certainly a typo (kHz for Hz, period for frequency).
    static let resonantFrequencies = 45.0...400.0
    static let lraLibrary = 6

    let file: BoardFile
    private var board: BoardDescription { file.description }

    /// Every problem in the file, in file order: what decoding met, then every rule broken by a
    /// value that was read (a rule about a value decoding could not read would only repeat it).
    func problems() -> [BoardFileError] {
        var found: [BoardFileError] = []
        found += nameProblems()
        found += busProblems()
        found += muxProblems()
        for index in board.actuators.indices {
            let actuator = board.actuators[index]
            found += actuator.pcm != nil ? pcmActuatorProblems(at: index) : actuator.evdev != nil ? evdevActuatorProblems(at: index) : actuatorProblems(at: index)
        }
        found += addressConflicts()
        found += pcmDeviceConflicts()
        found += audioProblems()
        found += powerProblems()
        found += forceFeedbackProblems()
        found += inputProblems()
        found.removeAll { problem in
            problem.keyPath.map { path in file.unreadKeyPaths.contains { path.isWithin($0) } } ?? false
        }
        return (file.decodingProblems + found).sorted { ($0.line ?? 0, $0.column ?? 0) < ($1.line ?? 0, $1.column ?? 0) }
    }

    private func nameProblems() -> [BoardFileError] {
        var found: [BoardFileError] = []
        if board.board.isBlank {
            found.append(file.problem(at: BoardKeyPath([.key("board")]), "the board needs a name"))
        }
        if board.actuators.isEmpty, !fellBack("actuators", board.actuators) {
            found.append(file.problem(at: BoardKeyPath([.key("actuators")]), "a board needs at least one actuator"))
        }
        var seen: [String: BoardKeyPath] = [:]
        let named: [(String, BoardKeyPath)] =
            board.buses.enumerated().map { ($1.name, BoardKeyPath([.key("buses"), .index($0), .key("name")])) }
            + board.muxes.enumerated().map { ($1.name, BoardKeyPath([.key("muxes"), .index($0), .key("name")])) }
            + board.actuators.enumerated().map { ($1.name, BoardKeyPath([.key("actuators"), .index($0), .key("name")])) }
        for (name, path) in named {
            if let first = seen[name] {
                found.append(file.problem(at: path, "the name '\(name)' is already used at \(first)"))
            } else {
                seen[name] = path
            }
        }
        return found
    }

    private func busProblems() -> [BoardFileError] {
        var found: [BoardFileError] = []
        for (index, bus) in board.buses.enumerated() {
            let path = BoardKeyPath([.key("buses"), .index(index)])
            if bus.device != "sim" && !bus.device.hasPrefix("/dev/i2c-") {
                found.append(file.problem(at: path.appending("device"), "expected an i2c-dev node such as /dev/i2c-1, or 'sim', not '\(bus.device)'"))
            }
            if !(1_000...Self.maximumBusSpeedHz).contains(bus.clockFrequency) {
                found.append(file.problem(at: path.appending("clock-frequency"), "\(bus.clockFrequency) Hz is outside 1000...\(Self.maximumBusSpeedHz) Hz, the range the DRV260x and TCA9548A support"))
            }
        }
        return found
    }

    private func muxProblems() -> [BoardFileError] {
        var found: [BoardFileError] = []
        let busNames = Set(board.buses.map(\.name))
        for (index, mux) in board.muxes.enumerated() {
            let path = BoardKeyPath([.key("muxes"), .index(index)])
            if mux.compatible != Self.muxCompatible {
                found.append(file.problem(at: path.appending("compatible"), "unsupported multiplexer '\(mux.compatible)'; supported: \(Self.muxCompatible)"))
            }
            if !busNames.contains(mux.bus), !fellBack("buses", board.buses) {
                found.append(file.problem(at: path.appending("bus"), Self.unknownReference("bus", mux.bus, known: busNames)))
            }
            if !Self.muxAddresses.contains(mux.reg) {
                found.append(file.problem(at: path.appending("reg"), "a TCA9548A answers at 0x70...0x77, not \(Self.hex(mux.reg))"))
            }
        }
        return found
    }

    private func actuatorProblems(at index: Int) -> [BoardFileError] {
        let actuator = board.actuators[index]
        let path = BoardKeyPath([.key("actuators"), .index(index)])
        var found: [BoardFileError] = []
        func check(_ condition: Bool, _ key: String, _ message: @autoclosure () -> String) {
            if !condition { found.append(file.problem(at: path.appending(key), message())) }
        }

        check(Self.hapticDriverCompatibles.contains(actuator.compatible), "compatible",
              "unsupported driver '\(actuator.compatible)'; supported: \((Self.hapticDriverCompatibles.sorted() + [ActuatorDescription.pcmCompatible, ActuatorDescription.evdevCompatible]).joined(separator: ", "))")
        found += placementProblems(of: actuator, at: path)
        check(actuator.reg == Self.hapticDriverAddress, "reg",
              "a DRV260x answers only at \(Self.hex(Self.hapticDriverAddress)), not \(Self.hex(actuator.reg)); put several behind a TCA9548A")
        if let enable = actuator.enableGPIOs {
            do {
                _ = try GPIOLineSpecifier(parsing: enable)
            } catch {
                check(false, "enable-gpios", "\(error); expected a line name such as GPIO17 or chip:offset such as gpiochip0:17")
            }
        }

        let isLRA = actuator.actuatorMode == "LRA"
        check(["LRA", "ERM"].contains(actuator.actuatorMode), "actuator-mode", "expected LRA or ERM, not '\(actuator.actuatorMode)'")
        if let loop = actuator.loop {
            check(["open", "closed"].contains(loop), "loop", "expected open or closed, not '\(loop)'")
        }
        // Decoding requires both for a DRV260x; the zeros only stand in for what decoding rejected.
        let rated = actuator.vibRatedMillivolts ?? 0
        let overdrive = actuator.vibOverdriveMillivolts ?? 0
        check(Self.driveMillivolts.contains(rated), "vib-rated-mv",
              "\(rated) mV is outside \(Self.driveMillivolts.lowerBound)...\(Self.driveMillivolts.upperBound) mV")
        check(Self.driveMillivolts.contains(overdrive), "vib-overdrive-mv",
              "\(overdrive) mV is outside \(Self.driveMillivolts.lowerBound)...\(Self.driveMillivolts.upperBound) mV")
        check(overdrive >= rated, "vib-overdrive-mv",
              "the overdrive clamp (\(overdrive) mV) must not be below the rated voltage (\(rated) mV)")

        if let frequency = actuator.resonantFrequencyHz {
            check(isLRA, "resonant-frequency-hz", "only an LRA has a resonant frequency; remove it for an ERM")
            check(Self.resonantFrequencies.contains(frequency), "resonant-frequency-hz",
                  "\(frequency) Hz is outside \(Int(Self.resonantFrequencies.lowerBound))...\(Int(Self.resonantFrequencies.upperBound)) Hz")
        } else if isLRA {
            found.append(file.problem(at: path, "an LRA needs resonant-frequency-hz (for open-loop drive and the drive time)"))
        }

        if let library = actuator.librarySel {
            if Self.romlessCompatibles.contains(actuator.compatible) {
                check(library == 0, "library-sel", "\(actuator.compatible) has no ROM effect library; remove library-sel")
            } else if !(0...7).contains(library) {
                check(false, "library-sel", "expected 0...7 (0 empty, 1-5 ERM A-E, 6 LRA, 7 ERM F), not \(library)")
            } else if actuator.actuatorMode == "ERM" || isLRA {
                check(isLRA == (library == Self.lraLibrary) || library == 0, "library-sel",
                      isLRA ? "an LRA plays library 6; ERM libraries would overdrive it" : "library 6 is for LRAs; choose 1-5 or 7 for an ERM")
                let isClosedLoopERM = !isLRA && (actuator.loop ?? "closed") == "closed"
                check(!(isClosedLoopERM && library == Int(ROMLibrary.ermA.rawValue)), "library-sel",
                      "ERM library A has its overdrive built into the waveforms and is for open loop only (DRV2605L datasheet, waveform library selection): choose 2-5 or 7 in closed loop, or loop: open")
            }
        }
        if let format = actuator.rtpFormat {
            check(DRV2605RealtimeFormat(rawValue: format.lowercased()) != nil, "rtp-format", "expected signed or unsigned, not '\(format)'")
        }
        if let input = actuator.rtpInput {
            if let direction = DRV2605InputDirection(rawValue: input.lowercased()) {
                check(!(direction == .unidirectional && actuator.loop == "open"), "rtp-input",
                      "unidirectional input (BIDIR_INPUT = 0) is for closed loop only (DRV2605L datasheet, CONTROL2); use bidirectional with loop: open")
            } else {
                check(false, "rtp-input", "expected bidirectional or unidirectional, not '\(input)'")
            }
        }
        if let brake = actuator.feedbackBrakeFactor {
            check((0...7).contains(brake), "feedback-brake-factor", "expected 0...7, not \(brake)")
        }
        if let gain = actuator.loopGain {
            check((0...3).contains(gain), "loop-gain", "expected 0...3, not \(gain)")
        }
        if let interval = actuator.statusPollMs {
            check(interval >= 0, "status-poll-ms", "expected milliseconds between STATUS reads (0: none), not \(interval)")
        }
        if let limit = actuator.maxContinuousDriveMs {
            check(limit > 0, "max-continuous-drive-ms", "expected a positive number of milliseconds, not \(limit)")
        }
        return found
    }

    /// An actuator sits either directly on a bus or on one channel of a multiplexer.
    private func placementProblems(of actuator: ActuatorDescription, at path: BoardKeyPath) -> [BoardFileError] {
        switch (actuator.bus, actuator.mux) {
        case (nil, nil):
            return [file.problem(at: path, "say where the chip is: 'bus' or 'mux' with 'mux-channel'")]
        case (.some, .some):
            return [file.problem(at: path.appending("mux"), "give either 'bus' or 'mux', not both")]
        case (.some(let bus), nil):
            var found: [BoardFileError] = []
            let names = Set(board.buses.map(\.name))
            if !names.contains(bus), !fellBack("buses", board.buses) {
                found.append(file.problem(at: path.appending("bus"), Self.unknownReference("bus", bus, known: names)))
            }
            if actuator.muxChannel != nil {
                found.append(file.problem(at: path.appending("mux-channel"), "mux-channel needs 'mux'"))
            }
            return found
        case (nil, .some(let mux)):
            var found: [BoardFileError] = []
            let names = Set(board.muxes.map(\.name))
            if !names.contains(mux), !fellBack("muxes", board.muxes) {
                found.append(file.problem(at: path.appending("mux"), Self.unknownReference("mux", mux, known: names)))
            }
            switch actuator.muxChannel {
            case nil: found.append(file.problem(at: path, "a chip behind a mux needs 'mux-channel' (0...7)"))
            case .some(let channel) where !(0...7).contains(channel):
                found.append(file.problem(at: path.appending("mux-channel"), "a TCA9548A has channels 0...7, not \(channel)"))
            default: break
            }
            return found
        }
    }

    /// Two chips at one address on one segment would both answer every transfer.
    private func addressConflicts() -> [BoardFileError] {
        var found: [BoardFileError] = []
        var taken: [String: String] = [:]
        for (index, actuator) in board.actuators.enumerated() where actuator.pcm == nil && actuator.evdev == nil {
            let segment = actuator.mux.map { "\($0) channel \(actuator.muxChannel ?? -1)" } ?? actuator.bus ?? ""
            let place = "\(segment) at \(Self.hex(actuator.reg))"
            if let other = taken[place] {
                found.append(file.problem(at: BoardKeyPath([.key("actuators"), .index(index), .key("reg")]),
                                          "'\(actuator.name)' and '\(other)' both sit on \(place); DRV260x chips sharing a bus need a TCA9548A channel each"))
            } else {
                taken[place] = actuator.name
            }
        }
        return found
    }

    private func powerProblems() -> [BoardFileError] {
        guard let power = board.power else { return [] }
        var found: [BoardFileError] = []
        let path = BoardKeyPath([.key("power")])
        if let standby = power.standbyTimeoutMs, standby <= 0 {
            found.append(file.problem(at: path.appending("standby-timeout-ms"), "expected a positive number of milliseconds, not \(standby)"))
        }
        if let off = power.offTimeoutMs, off <= 0 {
            found.append(file.problem(at: path.appending("off-timeout-ms"), "expected a positive number of milliseconds, not \(off)"))
        }
        if let standby = power.standbyTimeoutMs, let off = power.offTimeoutMs, off < standby {
            found.append(file.problem(at: path.appending("off-timeout-ms"), "the chip goes to standby before it is switched off, so off-timeout-ms (\(off)) must be at least standby-timeout-ms (\(standby))"))
        }
        return found
    }

    /// Whether the list at top-level `key` is empty because decoding could not read it (missing,
    /// or an entry of the wrong shape): names it would define are then unknown, not wrong.
    private func fellBack<Entry>(_ key: String, _ list: [Entry]) -> Bool {
        let path = BoardKeyPath([.key(key)])
        return list.isEmpty && file.unreadKeyPaths.contains { $0.isWithin(path) }
    }

    static func unknownReference(_ kind: String, _ name: String, known: Set<String>) -> String {
        let list = known.isEmpty ? "none is defined" : "defined: \(known.sorted().joined(separator: ", "))"
        return "no \(kind) named '\(name)' (\(list))"
    }

    static func hex(_ value: Int) -> String {
        "0x" + String(value, radix: 16, uppercase: true)
    }
}

extension String {
    /// Whether a name holds nothing but white space (or nothing): one a user cannot have meant.
    var isBlank: Bool { allSatisfy(\.isWhitespace) }
}
