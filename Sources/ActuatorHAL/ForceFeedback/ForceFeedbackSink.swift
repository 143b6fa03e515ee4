/// A force-feedback device this process is a client of (Linux: `/dev/input/eventN` with `EV_FF`):
/// where `ForceFeedbackActuator` uploads and plays its effects. Implementations:
/// `EvdevForceFeedbackSink` (ActuatorHALLinux), `SimulatedForceFeedbackDevice.Client` (HardwareMocks).
public protocol ForceFeedbackSink: AnyObject {
    /// The device's name (`EVIOCGNAME`).
    var name: String { get }
    /// Its node (`/dev/input/event5`).
    var path: String { get }
    var capabilities: ForceFeedbackCapabilities { get }

    /// Uploads `effect` (`EVIOCSFF`): id −1 takes a free slot, an id this client holds replaces
    /// that effect (restarting it if it plays). Returns the slot.
    /// - Throws: `ForceFeedbackError.request` with the kernel's or the driver's errno (EINVAL,
    ///   ENOSPC when the device is full), `.deviceGone` when it went away.
    func upload(_ effect: ForceFeedbackEffect) throws(ForceFeedbackError) -> Int16
    /// Erases effect `id` (`EVIOCRMFF`), stopping it first.
    func erase(effectID id: Int16) throws(ForceFeedbackError)
    /// Plays effect `id` `count` times (`EV_FF`); count 0 stops it.
    func play(effectID id: Int16, count: Int32) throws(ForceFeedbackError)
    /// Sets the device's gain (`EV_FF` / `FF_GAIN`), 0…0xFFFF.
    func setGain(_ gain: UInt16) throws(ForceFeedbackError)
    /// Checks the device is still there (an unplugged one throws `.deviceGone`).
    func checkPresent() throws(ForceFeedbackError)
    /// Closes the device: the kernel erases every effect this client uploaded.
    func close()
}

/// Which input device a board means: a node (`/dev/input/event5`, `/dev/input/by-id/…`) or the
/// name the device reports.
public enum InputDeviceLocation: Sendable, Hashable, CustomStringConvertible {
    case path(String)
    case name(String)

    public var description: String {
        switch self {
        case .path(let path): path
        case .name(let name): "the input device named '\(name)'"
        }
    }
}
