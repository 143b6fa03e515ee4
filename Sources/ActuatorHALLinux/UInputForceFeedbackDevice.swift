import ActuatorHAL
import CDrivers
import Foundation
import SystemPackage

/// A force-feedback device this process provides through Linux uinput (`/dev/uinput`): created
/// with `EV_FF`, the capabilities' `FF_*` bits and `ff_effects_max`, and served as
/// `linux/uinput.h` describes — an `EV_UINPUT` event with `UI_FF_UPLOAD` or `UI_FF_ERASE`
/// announces a request, fetched with `UI_BEGIN_FF_UPLOAD`/`_ERASE` and answered with
/// `UI_END_FF_UPLOAD`/`_ERASE` and its `retval`; `EV_FF` events carry plays, stops and the gain.
///
/// Needs write access to `/dev/uinput` (root, or a udev rule giving the `input` group access).
/// `close()` destroys the device (clients then get ENODEV).
public final class UInputForceFeedbackDevice: ForceFeedbackDevice, @unchecked Sendable {
    public let setup: ForceFeedbackDeviceSetup
    /// The node clients open (`/dev/input/event5`), when sysfs showed it.
    public let clientPath: String?
    private let descriptor: CInt
    private let wakeDescriptor: CInt
    private let lock = NSLock()
    private var isClosed = false
    /// The uinput node's name in errors.
    private let node: String

    /// `EV_UINPUT`: the type of uinput's own request events.
    private static let uinputEventType: UInt16 = 0x0101
    private static let uploadCode: UInt16 = 1
    private static let eraseCode: UInt16 = 2

    /// Creates the device.
    /// - Throws: `ForceFeedbackError.open` (ENOENT: the uinput module is not loaded; EACCES: no
    ///   access to `path`), `.request` naming the ioctl that failed.
    public init(setup: ForceFeedbackDeviceSetup, path: String = "/dev/uinput") throws(ForceFeedbackError) {
        var descriptor: CInt = -1
        var wake: CInt = -1
        var failedStep: UnsafePointer<CChar>?
        let slots = UInt32(max(1, min(setup.capabilities.effectSlots, ForceFeedbackCode.maximumEffects)))
        let name = String(decoding: setup.name.utf8.prefix(ForceFeedbackDeviceSetup.maximumNameBytes), as: UTF8.self)
        let error = hb_uinput_create_with_inputs(
            path, name, setup.busType, setup.vendor, setup.product, setup.version, setup.capabilities.bits, slots,
            setup.keys, setup.keys.count, setup.relativeAxes, setup.relativeAxes.count, &descriptor, &wake, &failedStep
        )
        guard error == 0 else {
            let step = failedStep.map { String(cString: $0) } ?? "open"
            if step == "open" { throw .open(device: path, errno: Errno(rawValue: error)) }
            throw .request(device: path, operation: step, errno: Errno(rawValue: error))
        }
        self.setup = setup
        self.descriptor = descriptor
        wakeDescriptor = wake
        node = path
        var buffer = [CChar](repeating: 0, count: 128)
        clientPath = hb_uinput_event_node(descriptor, &buffer, buffer.count) == 0 ? String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self) : nil
    }

    deinit {
        close()
    }

    public func nextRequest(timeout: Duration?) throws(ForceFeedbackError) -> ForceFeedbackRequest? {
        let limit = timeout.map { ContinuousClock.now + $0 }
        while true {
            var event = hb_input_event()
            let error = hb_uinput_read(descriptor, &event)
            if error == 0 {
                if let request = try request(for: event) { return request }
                continue
            }
            guard error == EAGAIN else { throw failure("read", error) }
            let left = limit.map { max(.zero, $0 - ContinuousClock.now) }
            if left == .zero { return nil }
            var ready: CInt = 0
            let waited = hb_uinput_wait(descriptor, wakeDescriptor, left.map { $0.nanoseconds } ?? -1, &ready)
            guard waited == 0 else { throw failure("poll", waited) }
            // Woken by interrupt(), or the time ran out.
            if ready == 0 { return nil }
        }
    }

    /// The request an event carries; nil for events that are none (EV_SYN, EV_FF codes unknown).
    private func request(for event: hb_input_event) throws(ForceFeedbackError) -> ForceFeedbackRequest? {
        switch event.type {
        case Self.uinputEventType where event.code == Self.uploadCode:
            let requestID = UInt32(bitPattern: event.value)
            var effect = hb_ff_effect()
            var old = hb_ff_effect()
            let error = hb_uinput_begin_upload(descriptor, requestID, &effect, &old)
            guard error == 0 else { throw failure("UI_BEGIN_FF_UPLOAD", error) }
            guard let uploaded = ForceFeedbackEffect(effect) else {
                // An upload without a type: refuse it rather than leave the client waiting.
                _ = hb_uinput_end_upload(descriptor, requestID, -EINVAL)
                return nil
            }
            return .upload(ForceFeedbackUpload(requestID: requestID, effect: uploaded, previous: ForceFeedbackEffect(old)))
        case Self.uinputEventType where event.code == Self.eraseCode:
            let requestID = UInt32(bitPattern: event.value)
            var effectID: UInt32 = 0
            let error = hb_uinput_begin_erase(descriptor, requestID, &effectID)
            guard error == 0 else { throw failure("UI_BEGIN_FF_ERASE", error) }
            return .erase(ForceFeedbackErase(requestID: requestID, effectID: Int(effectID)))
        case ForceFeedbackCode.eventType:
            switch event.code {
            case ForceFeedbackCode.gain: return .gain(UInt16(clamping: event.value))
            case ForceFeedbackCode.autocenter: return .autocenter(UInt16(clamping: event.value))
            default: return .play(effectID: Int(event.code), count: event.value)
            }
        default:
            return nil
        }
    }

    public func complete(_ upload: ForceFeedbackUpload, result: Errno?) throws(ForceFeedbackError) {
        let error = hb_uinput_end_upload(descriptor, upload.requestID, -(result?.rawValue ?? 0))
        guard error == 0 else { throw failure("UI_END_FF_UPLOAD", error) }
    }

    public func complete(_ erase: ForceFeedbackErase, result: Errno?) throws(ForceFeedbackError) {
        let error = hb_uinput_end_erase(descriptor, erase.requestID, -(result?.rawValue ?? 0))
        guard error == 0 else { throw failure("UI_END_FF_ERASE", error) }
    }

    /// Writes the event and a `SYN_REPORT`.
    public func emit(_ event: InputDeviceEvent) throws(ForceFeedbackError) {
        let (type, code, value): (UInt16, UInt16, Int32) = switch event {
        case .key(let code, let pressed): (0x01, code, pressed ? 1 : 0)
        case .relative(let axis, let value): (0x02, axis, value)
        }
        let error = lock.withLock { isClosed ? ENODEV : hb_uinput_emit(descriptor, type, code, value) }
        guard error == 0 else { throw failure("write \(event)", error) }
    }

    public func interrupt() {
        lock.withLock {
            guard !isClosed else { return }
            _ = hb_uinput_wake(wakeDescriptor)
        }
    }

    public func close() {
        let wasOpen = lock.withLock { () -> Bool in
            defer { isClosed = true }
            return !isClosed
        }
        if wasOpen { hb_uinput_destroy(descriptor, wakeDescriptor) }
    }

    private func failure(_ operation: String, _ error: CInt) -> ForceFeedbackError {
        if error == ENODEV || lock.withLock({ isClosed }) { return .deviceGone(device: clientPath ?? node) }
        return .request(device: clientPath ?? node, operation: operation, errno: Errno(rawValue: error))
    }
}
