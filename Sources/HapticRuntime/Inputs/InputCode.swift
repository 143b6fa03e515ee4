/// Key and relative-axis codes of linux/input-event-codes.h by name, for board files: the keys a
/// press is sent as on the uinput device and the evdev keys read, the axis encoder steps move.
public enum InputCode {
    /// `BTN_*` and `KEY_*` codes a board file may name (others by number).
    public static let keys: [String: UInt16] = {
        var codes: [String: UInt16] = [
            "BTN_0": 0x100, "BTN_1": 0x101, "BTN_2": 0x102, "BTN_3": 0x103, "BTN_4": 0x104,
            "BTN_LEFT": 0x110, "BTN_RIGHT": 0x111, "BTN_MIDDLE": 0x112,
            "BTN_SOUTH": 0x130, "BTN_A": 0x130, "BTN_EAST": 0x131, "BTN_B": 0x131, "BTN_NORTH": 0x133, "BTN_X": 0x133,
            "BTN_WEST": 0x134, "BTN_Y": 0x134, "BTN_TL": 0x136, "BTN_TR": 0x137, "BTN_TL2": 0x138, "BTN_TR2": 0x139,
            "BTN_SELECT": 0x13A, "BTN_START": 0x13B, "BTN_MODE": 0x13C, "BTN_THUMBL": 0x13D, "BTN_THUMBR": 0x13E,
            "BTN_DPAD_UP": 0x220, "BTN_DPAD_DOWN": 0x221, "BTN_DPAD_LEFT": 0x222, "BTN_DPAD_RIGHT": 0x223,
            "KEY_ESC": 1, "KEY_BACKSPACE": 14, "KEY_TAB": 15, "KEY_ENTER": 28, "KEY_SPACE": 57,
            "KEY_HOME": 102, "KEY_UP": 103, "KEY_LEFT": 105, "KEY_RIGHT": 106, "KEY_DOWN": 108,
            "KEY_MUTE": 113, "KEY_VOLUMEDOWN": 114, "KEY_VOLUMEUP": 115, "KEY_MENU": 139, "KEY_BACK": 158,
            "KEY_NEXTSONG": 163, "KEY_PLAYPAUSE": 164, "KEY_PREVIOUSSONG": 165, "KEY_OK": 0x160, "KEY_SELECT": 0x161,
        ]
        for (index, digit) in "1234567890".enumerated() { codes["KEY_\(digit)"] = UInt16(2 + index) }
        for (row, first) in [("QWERTYUIOP", 16), ("ASDFGHJKL", 30), ("ZXCVBNM", 44)] {
            for (index, letter) in row.enumerated() { codes["KEY_\(letter)"] = UInt16(first + index) }
        }
        return codes
    }()

    /// `REL_*` axes an encoder may move.
    public static let relativeAxes: [String: UInt16] = [
        "REL_X": 0, "REL_Y": 1, "REL_Z": 2, "REL_HWHEEL": 6, "REL_DIAL": 7, "REL_WHEEL": 8, "REL_MISC": 9,
    ]

    /// KEY_MAX: the highest key code.
    public static let keyMaximum: UInt16 = 0x2FF
    /// REL_MAX.
    public static let relativeMaximum: UInt16 = 0x0F

    /// The key code `text` names: a name of `keys` or a number up to KEY_MAX.
    public static func key(_ text: String) -> UInt16? {
        keys[text.uppercased()] ?? UInt16(text).flatMap { $0 <= keyMaximum ? $0 : nil }
    }

    /// The relative axis `text` names: a name of `relativeAxes` or a number up to REL_MAX.
    public static func relativeAxis(_ text: String) -> UInt16? {
        relativeAxes[text.uppercased()] ?? UInt16(text).flatMap { $0 <= relativeMaximum ? $0 : nil }
    }
}
