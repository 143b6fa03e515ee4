import SystemPackage

/// A key pressed or released on an input device, timestamped by the kernel (CLOCK_MONOTONIC).
public struct KeyEvent: Sendable, Hashable {
    /// The `KEY_*` or `BTN_*` code.
    public var code: UInt16
    public var pressed: Bool
    public var timestamp: MonotonicInstant

    public init(code: UInt16, pressed: Bool, timestamp: MonotonicInstant) {
        self.code = code
        self.pressed = pressed
        self.timestamp = timestamp
    }
}

/// The keys of an input device read by this process (a USB keypad or keyboard's
/// `/dev/input/event*`), as buttons. Auto-repeat is not a press and is skipped.
public protocol KeyEventSource: AnyObject {
    /// The device's node.
    var path: String { get }
    /// Waits up to `timeout` for the next press or release; nil when none came in time.
    func waitForKey(timeout: Duration) throws(KeySourceError) -> KeyEvent?
}

/// Why an input device's keys cannot be read.
public enum KeySourceError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The node cannot be opened (ENOENT: not plugged in; EACCES: add the user to `input`).
    case open(path: String, errno: Errno)
    /// A read failed.
    case read(path: String, errno: Errno)
    /// The device went away (unplugged).
    case gone(path: String)

    public var description: String {
        switch self {
        case .open(let path, let errno): "cannot open input device \(path): \(errno) (errno \(errno.rawValue))"
        case .read(let path, let errno): "input device \(path): read failed: \(errno) (errno \(errno.rawValue))"
        case .gone(let path): "input device \(path) is gone (unplugged?)"
        }
    }
}
