import ActuatorHAL
import CDrivers
import Foundation
import SystemPackage

/// An input device node (`/dev/input/eventN`) opened as a force-feedback client: effects go up
/// with `EVIOCSFF`, away with `EVIOCRMFF`, and play, stop and gain are `EV_FF` events written to
/// the node. Closing it makes the kernel erase every effect it uploaded.
public final class EvdevForceFeedbackSink: ForceFeedbackSink {
    public let path: String
    public let name: String
    public let capabilities: ForceFeedbackCapabilities
    /// The device's ids and capabilities as read at open.
    public let info: InputDeviceInfo
    private var descriptor: CInt?

    /// Opens `path` read-write.
    /// - Throws: `ForceFeedbackError.open` with errno (EACCES: join the `input` group),
    ///   `.notForceFeedback` for a device without `EV_FF`.
    public init(path: String) throws(ForceFeedbackError) {
        var descriptor: CInt = -1
        let error = hb_evdev_open(path, 1, &descriptor)
        guard error == 0 else { throw .open(device: path, errno: Errno(rawValue: error)) }
        let info: InputDeviceInfo
        do {
            info = try InputDeviceInfo(descriptor: descriptor, path: path)
        } catch {
            hb_evdev_close(descriptor)
            throw error
        }
        guard let capabilities = info.forceFeedback else {
            hb_evdev_close(descriptor)
            throw .notForceFeedback(device: "\(path) ('\(info.name)')", reason: "has no EV_FF: it is not a force-feedback device")
        }
        self.path = path
        self.info = info
        name = info.name
        self.capabilities = capabilities
        self.descriptor = descriptor
    }

    /// Opens the first device named `name` (`/dev/input/event*` in number order).
    public convenience init(named name: String, in folder: String = InputDeviceInfo.folder) throws(ForceFeedbackError) {
        guard let found = InputDeviceInfo.all(in: folder).first(where: { $0.name == name }) else {
            throw .noDeviceNamed(name, searched: "\(folder)/event*")
        }
        try self.init(path: found.path)
    }

    deinit {
        close()
    }

    public func upload(_ effect: ForceFeedbackEffect) throws(ForceFeedbackError) -> Int16 {
        var raw = effect.raw
        try check("EVIOCSFF") { hb_evdev_upload($0, &raw) }
        return raw.id
    }

    public func erase(effectID id: Int16) throws(ForceFeedbackError) {
        try check("EVIOCRMFF") { hb_evdev_erase($0, CInt(id)) }
    }

    public func play(effectID id: Int16, count: Int32) throws(ForceFeedbackError) {
        try check(count == 0 ? "EV_FF stop" : "EV_FF play") { hb_evdev_write_ff($0, UInt16(bitPattern: id), count) }
    }

    public func setGain(_ gain: UInt16) throws(ForceFeedbackError) {
        try check("EV_FF FF_GAIN") { hb_evdev_write_ff($0, ForceFeedbackCode.gain, Int32(gain)) }
    }

    /// `EVIOCGEFFECTS`: ENODEV once the device is gone.
    public func checkPresent() throws(ForceFeedbackError) {
        var effects: CInt = 0
        try check("EVIOCGEFFECTS") { hb_evdev_effects($0, &effects) }
    }

    public func close() {
        if let descriptor { hb_evdev_close(descriptor) }
        descriptor = nil
    }

    private func check(_ operation: String, _ call: (CInt) -> CInt) throws(ForceFeedbackError) {
        guard let descriptor else { throw .request(device: path, operation: operation, errno: .badFileDescriptor) }
        let error = call(descriptor)
        if error == ENODEV { throw .deviceGone(device: path) }
        guard error == 0 else { throw .request(device: path, operation: operation, errno: Errno(rawValue: error)) }
    }
}

/// What an input device node says it is: name, ids and force-feedback capabilities.
public struct InputDeviceInfo: Sendable, Hashable {
    /// Where input device nodes live.
    public static let folder = "/dev/input"

    public var path: String
    public var name: String
    public var busType: UInt16
    public var vendor: UInt16
    public var product: UInt16
    public var version: UInt16
    /// Its force feedback; nil for a device without `EV_FF`.
    public var forceFeedback: ForceFeedbackCapabilities?

    init(descriptor: CInt, path: String) throws(ForceFeedbackError) {
        var raw = hb_input_info()
        let error = hb_evdev_info(descriptor, &raw)
        guard error == 0 else { throw .request(device: path, operation: "EVIOCGNAME/EVIOCGID/EVIOCGBIT", errno: Errno(rawValue: error)) }
        self.path = path
        name = withUnsafeBytes(of: raw.name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
        busType = raw.bustype
        vendor = raw.vendor
        product = raw.product
        version = raw.version
        forceFeedback = raw.has_ff != 0 ? ForceFeedbackCapabilities(bits: raw.ff_bits, effectSlots: Int(raw.effects_max)) : nil
    }

    /// Reads the device at `path` (opened read-only).
    public init(path: String) throws(ForceFeedbackError) {
        var descriptor: CInt = -1
        let error = hb_evdev_open(path, 0, &descriptor)
        guard error == 0 else { throw .open(device: path, errno: Errno(rawValue: error)) }
        defer { hb_evdev_close(descriptor) }
        try self.init(descriptor: descriptor, path: path)
    }

    /// Every `event*` node of `folder` that could be read, in number order.
    public static func all(in folder: String = folder) -> [InputDeviceInfo] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
        let events = names.filter { $0.hasPrefix("event") }.sorted { (Int($0.dropFirst(5)) ?? 0) < (Int($1.dropFirst(5)) ?? 0) }
        return events.compactMap { try? InputDeviceInfo(path: "\(folder)/\($0)") }
    }

    /// `vvvv:pppp` in hex, as `lsusb` and SDL's controller database write ids.
    public var ids: String {
        String(format: "%04x:%04x", vendor, product)
    }
}
