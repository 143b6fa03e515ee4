import ActuatorHAL

/// Rules for actuators that are force-feedback input devices (`compatible: evdev-ff`) and for the
/// board's own force-feedback device (`force-feedback:`).
extension BoardRules {
    /// Where input device nodes live; `device:` must name one there (or a by-id/by-path link), or `sim`.
    static let inputDeviceFolder = "/dev/input/"

    /// Problems of evdev-ff actuator `index`.
    func evdevActuatorProblems(at index: Int) -> [BoardFileError] {
        let actuator = file.description.actuators[index]
        let path = BoardKeyPath([.key("actuators"), .index(index)])
        guard let evdev = actuator.evdev else { return [] }
        var found: [BoardFileError] = []
        func check(_ condition: Bool, _ key: String, _ message: @autoclosure () -> String) {
            if !condition { found.append(file.problem(at: key.isEmpty ? path : path.appending(key), message())) }
        }
        let given: [(String, Bool)] = [
            ("bus", actuator.bus != nil), ("mux", actuator.mux != nil), ("mux-channel", actuator.muxChannel != nil),
            ("enable-gpios", actuator.enableGPIOs != nil), ("loop", actuator.loop != nil), ("library-sel", actuator.librarySel != nil),
            ("feedback-brake-factor", actuator.feedbackBrakeFactor != nil), ("loop-gain", actuator.loopGain != nil),
            ("vib-rated-mv", actuator.vibRatedMillivolts != nil), ("vib-overdrive-mv", actuator.vibOverdriveMillivolts != nil),
            ("rtp-format", actuator.rtpFormat != nil), ("rtp-input", actuator.rtpInput != nil),
        ]
        for (key, isGiven) in given where isGiven {
            found.append(file.problem(at: path.appending(key), "'\(key)' is for DRV260x chips; an evdev-ff actuator is driven through its input device's force feedback"))
        }
        switch (evdev.device, evdev.deviceName) {
        case (nil, nil):
            check(false, "", "an evdev-ff actuator needs 'device' (a node such as /dev/input/by-id/usb-…-event-joystick) or 'device-name' (the name the device reports)")
        case (.some, .some):
            check(false, "device-name", "give either 'device' or 'device-name', not both")
        case (.some(let device), nil):
            check(device == Board.simName || device.hasPrefix(Self.inputDeviceFolder), "device",
                  "expected an input device node under \(Self.inputDeviceFolder) (such as /dev/input/by-id/usb-…-event-joystick), or 'sim', not '\(device)'")
        case (nil, .some(let name)):
            check(!name.isBlank, "device-name", "expected the name the device reports (hapticboard probe --ff lists them)")
        }
        let kind = ActuatorKind(rawValue: actuator.actuatorMode.lowercased())
        check(kind == .erm || kind == .lra, "actuator-mode", "an evdev-ff actuator is ERM (a rumble motor) or LRA (a vibra with a known resonance), not '\(actuator.actuatorMode)'")
        if let frequency = actuator.resonantFrequencyHz {
            check(Self.resonantFrequencies.contains(frequency), "resonant-frequency-hz",
                  "\(frequency) Hz is outside \(Int(Self.resonantFrequencies.lowerBound))...\(Int(Self.resonantFrequencies.upperBound)) Hz")
        }
        if let rate = evdev.updateRateHz {
            let rates = ForceFeedbackActuatorConfiguration.updateRates
            check(rates.contains(rate), "update-rate-hz", "expected \(Int(rates.lowerBound))...\(Int(rates.upperBound)) effect updates per second, not \(rate)")
        }
        if let gain = evdev.gain {
            check((0...1).contains(gain), "gain", "expected a gain in 0...1, not \(gain)")
        }
        if let pcm = actuator.pcm {
            check(false, "channels", "an evdev-ff actuator has no PCM stream (\(pcm.channels) channels given)")
        }
        if let interval = actuator.statusPollMs {
            check(interval >= 0, "status-poll-ms", "expected milliseconds between checks that the device is still there (0: none), not \(interval)")
        }
        if let limit = actuator.maxContinuousDriveMs {
            check(limit > 0, "max-continuous-drive-ms", "expected a positive number of milliseconds, not \(limit)")
        }
        return found
    }

    /// Problems of the `force-feedback:` section.
    func forceFeedbackProblems() -> [BoardFileError] {
        guard let section = file.description.forceFeedback else { return [] }
        let path = BoardKeyPath([.key("force-feedback")])
        var found: [BoardFileError] = []
        func check(_ condition: Bool, _ key: String, _ message: @autoclosure () -> String) {
            if !condition { found.append(file.problem(at: path.appending(key), message())) }
        }
        if let name = section.name {
            check(!name.isBlank && name.utf8.count <= ForceFeedbackDeviceSetup.maximumNameBytes, "name",
                  "expected a device name of 1...\(ForceFeedbackDeviceSetup.maximumNameBytes) bytes (uinput's limit), not \(name.utf8.count) bytes")
        }
        if let bus = section.busType {
            check(ForceFeedbackDescription.busTypes[bus.lowercased()] != nil || UInt16(bus) != nil, "bus-type",
                  "expected \(ForceFeedbackDescription.busTypes.keys.sorted().joined(separator: ", ")) or a BUS_* number, not '\(bus)'")
        }
        for (key, value) in [("vendor", section.vendor), ("product", section.product), ("version", section.version)] {
            if let value { check((0...0xFFFF).contains(value), key, "expected a 16-bit id (0...0xFFFF), not \(value)") }
        }
        if let slots = section.effectsMax {
            check((1...ForceFeedbackCode.maximumEffects).contains(slots), "effects-max",
                  "expected 1...\(ForceFeedbackCode.maximumEffects) effects (effect ids stay below FF_GAIN), not \(slots)")
        }
        let names = Set(file.description.actuators.map(\.name))
        for (key, value) in [("strong", section.strong), ("weak", section.weak)] {
            if let value {
                check(names.contains(value), key, "no actuator named '\(value)' (defined: \(names.sorted().joined(separator: ", ")))")
            }
        }
        if let strong = section.strong, let weak = section.weak {
            check(strong != weak, "weak", "the strong and weak motors must be two actuators; leave 'weak' out to play everything on '\(strong)'")
        }
        return found
    }
}
