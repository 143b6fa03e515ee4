import ActuatorHAL

extension Board {
    /// How the board presents itself as a force-feedback device (`force-feedback:`): its name
    /// (default `hapticboard <board>`), ids (default: the virtual bus, vendor and product 0,
    /// version 1) and `effects-max` slots (default 16) for rumble, the five periodic waveforms,
    /// constant, ramp and gain; with `inputs:`, also the buttons' `key` codes (EV_KEY) and the
    /// encoders' `axis` (EV_REL).
    public var forceFeedbackSetup: ForceFeedbackDeviceSetup {
        let section = file.description.forceFeedback
        let bus = section?.busType.flatMap { ForceFeedbackDescription.busTypes[$0.lowercased()] ?? UInt16($0) } ?? ForceFeedbackDeviceSetup.virtualBus
        var setup = ForceFeedbackDeviceSetup(
            name: section?.name ?? "hapticboard \(name)", busType: bus,
            vendor: UInt16(clamping: section?.vendor ?? 0), product: UInt16(clamping: section?.product ?? 0), version: UInt16(clamping: section?.version ?? 1),
            capabilities: .hapticboard(effectSlots: section?.effectsMax ?? 16)
        )
        // The board's buttons and encoders report on the same device: a gamepad with rumble.
        let inputs = self.inputs
        setup.keys = Array(Set(inputs.buttons.compactMap(\.key))).sorted()
        setup.relativeAxes = Array(Set(inputs.encoders.compactMap(\.axis))).sorted()
        return setup
    }

    /// Which actuators are the strong (left) and weak (right) motor: `strong:` and `weak:` of
    /// `force-feedback:`, else the first two in board order.
    public var forceFeedbackLayout: ForceFeedbackLayout {
        let section = file.description.forceFeedback
        // A board has at least one actuator (BoardRules), so the layout always exists.
        return ForceFeedbackLayout(actuators: actuatorNames, strong: section?.strong, weak: section?.weak)
            ?? ForceFeedbackLayout(strong: actuatorNames.first ?? "", weak: nil)
    }

    /// Problems of the input devices the board's evdev-ff actuators name, found by opening each
    /// on `hardware` as a client: a device without `EV_FF`, or with no effect hapticboard drives,
    /// located at its `device`/`device-name` key. A device that is not there (unplugged, or a
    /// board file for another machine) or cannot be opened (permissions) is not a problem of
    /// the file: opening the board reports it.
    public func deviceProblems(on hardware: any BoardHardware) -> [BoardFileError] {
        var found: [BoardFileError] = []
        for (index, entry) in actuators.enumerated() {
            guard case .evdevForceFeedback(let location, _) = entry.drive else { continue }
            do {
                let sink = try hardware.openForceFeedbackSink(at: location, for: entry.name)
                defer { sink.close() }
                if ForceFeedbackDrive(capabilities: sink.capabilities) == nil {
                    found.append(file.problem(at: inputDeviceKey(ofActuatorAt: index), "\(sink.path) ('\(sink.name)') \(ForceFeedbackDrive.requirement)"))
                }
            } catch .notForceFeedback(let device, let reason) {
                found.append(file.problem(at: inputDeviceKey(ofActuatorAt: index), "\(device) \(reason)"))
            } catch {
                continue
            }
        }
        return found
    }

    /// The key naming actuator `index`'s input device.
    func inputDeviceKey(ofActuatorAt index: Int) -> BoardKeyPath {
        let evdev = file.description.actuators[index].evdev
        return BoardKeyPath([.key("actuators"), .index(index), .key(evdev?.device == nil && evdev?.deviceName != nil ? "device-name" : "device")])
    }
}
