import ActuatorHAL
import CDrivers
import Foundation
import SystemPackage

/// The keys of an input device node (`/dev/input/event*`: a USB keypad, a keyboard) read with
/// kernel timestamps on CLOCK_MONOTONIC. The device is not grabbed: the desktop still sees it.
///
/// Not `Sendable`: one reader thread owns it.
public final class EvdevKeySource: KeyEventSource {
    public let path: String
    private let descriptor: CInt

    /// Opens `path` read-only.
    /// - Throws: `KeySourceError.open` (ENOENT: not plugged in; EACCES: add the user to `input`).
    public init(path: String) throws(KeySourceError) {
        var descriptor: CInt = -1
        let error = hb_evdev_open_keys(path, &descriptor)
        guard error == 0 else { throw .open(path: path, errno: Errno(rawValue: error)) }
        self.path = path
        self.descriptor = descriptor
    }

    deinit {
        hb_evdev_close(descriptor)
    }

    public func waitForKey(timeout: Duration) throws(KeySourceError) -> KeyEvent? {
        var code: UInt16 = 0
        var value: Int32 = 0
        var time: Int64 = 0
        var got: CInt = 0
        let error = hb_evdev_wait_key(descriptor, max(timeout.nanoseconds, 0), &code, &value, &time, &got)
        if error == ENODEV { throw .gone(path: path) }
        guard error == 0 else { throw .read(path: path, errno: Errno(rawValue: error)) }
        guard got != 0 else { return nil }
        return KeyEvent(code: code, pressed: value != 0, timestamp: MonotonicInstant(nanoseconds: time))
    }
}
