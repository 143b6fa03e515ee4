import ActuatorHAL

/// Reports decoded input events on the board's uinput device: a press or release of a button
/// with a `key` as EV_KEY, a detent of an encoder with an `axis` as EV_REL ±1; a press also goes to
/// `triggers`, which starts the effects triggered by that key. A device that refuses (gone, a code
/// it lacks) costs one warning through the decoder's handler, not the input.
///
/// Unchecked: every reader thread calls `report`; the devices serialise `emit` themselves
/// (uinput writes one event and its sync per write(2), under the device's lock).
final class InputDeviceOutput: @unchecked Sendable {
    let keys: [String: UInt16]
    let axes: [String: UInt16]
    let device: any ForceFeedbackDevice
    let decoder: InputDecoder
    let triggers: ForceFeedbackProvider?

    init(configuration: BoardInputConfiguration, device: any ForceFeedbackDevice, decoder: InputDecoder, triggers: ForceFeedbackProvider? = nil) {
        keys = Dictionary(configuration.buttons.compactMap { button in button.key.map { (button.name, $0) } }, uniquingKeysWith: { first, _ in first })
        axes = Dictionary(configuration.encoders.compactMap { encoder in encoder.axis.map { (encoder.name, $0) } }, uniquingKeysWith: { first, _ in first })
        self.device = device
        self.decoder = decoder
        self.triggers = triggers
    }

    func report(_ event: InputEvent) {
        let output: InputDeviceEvent
        switch event.kind {
        case .press, .release:
            guard let code = keys[event.input] else { return }
            output = .key(code, pressed: event.kind == .press)
            if event.kind == .press { triggers?.keyPressed(code) }
        case .step(let direction):
            guard let axis = axes[event.input] else { return }
            output = .relative(axis, Int32(direction))
        }
        do {
            try device.emit(output)
        } catch {
            decoder.warn("input \(event.input): not reported on \(device.setup.name): \(error)")
        }
    }
}
