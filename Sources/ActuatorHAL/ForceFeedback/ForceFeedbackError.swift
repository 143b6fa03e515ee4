import SystemPackage

/// A force-feedback failure, with the errno the kernel gave where there is one.
public enum ForceFeedbackError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The device node could not be opened (ENOENT: no such device; EACCES: the `input` group).
    case open(device: String, errno: Errno)
    /// No input device with this name exists.
    case noDeviceNamed(String, searched: String)
    /// The device exists but takes no force feedback (no `EV_FF`), or none hapticboard can play.
    case notForceFeedback(device: String, reason: String)
    /// A request failed: `operation` (`EVIOCSFF`, `UI_DEV_CREATE`, a write of `EV_FF`, …) and errno.
    case request(device: String, operation: String, errno: Errno)
    /// The device went away (unplugged, destroyed): ENODEV from the kernel.
    case deviceGone(device: String)
    /// This hardware cannot give force-feedback devices (a custom `BoardHardware`).
    case unsupported(String)

    public var description: String {
        switch self {
        case .open(let device, let errno):
            "cannot open \(device): \(errno)" + (errno == .permissionDenied ? " (add the user to the 'input' group, or use a udev rule)" : "")
        case .noDeviceNamed(let name, let searched):
            "no input device named '\(name)' in \(searched)"
        case .notForceFeedback(let device, let reason):
            "\(device) \(reason)"
        case .request(let device, let operation, let errno):
            "\(device): \(operation) failed: \(errno)"
        case .deviceGone(let device):
            "\(device) went away (ENODEV)"
        case .unsupported(let what):
            what
        }
    }
}
