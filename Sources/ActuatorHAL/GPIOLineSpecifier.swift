/// Which GPIO line a board means: a line name found on any chip (`GPIO17`), or a chip and an offset
/// on it (`gpiochip4:17`, `/dev/gpiochip0:5`).
///
/// Names are what `gpioinfo` lists and survive the chip renumbering between Raspberry Pi models, so
/// boards should prefer them.
public enum GPIOLineSpecifier: Sendable, Hashable, CustomStringConvertible {
    /// A line name, searched on every `/dev/gpiochip*`.
    case named(String)
    /// Line `offset` of `chip`, written as a chip name (`gpiochip4`) or a device path (`/dev/gpiochip4`).
    case chipOffset(chip: String, offset: UInt32)

    /// Parses `name`, `chip:offset` or `/dev/chip:offset`.
    /// - Throws: `GPIOLineSpecifierError` naming the text and what is wrong with it.
    public init(parsing text: String) throws(GPIOLineSpecifierError) {
        guard !text.isEmpty else { throw .empty }
        guard let colon = text.lastIndex(of: ":") else {
            guard text.first?.isWhitespace != true, text.last?.isWhitespace != true else {
                throw .surroundingWhitespace(text)
            }
            self = .named(text)
            return
        }
        let chip = String(text[..<colon])
        let offsetText = String(text[text.index(after: colon)...])
        guard !chip.isEmpty else { throw .missingChip(text) }
        guard !chip.contains(where: \.isWhitespace) else { throw .surroundingWhitespace(text) }
        // A bare chip name becomes /dev/<name>; anything else with a slash must be an absolute path.
        guard chip.hasPrefix("/") || !chip.contains("/") else { throw .badChip(text, chip: chip) }
        guard !offsetText.isEmpty, offsetText.allSatisfy(\.isASCII), offsetText.allSatisfy(\.isNumber),
              let offset = UInt32(offsetText)
        else { throw .badOffset(text, offset: offsetText) }
        self = .chipOffset(chip: chip, offset: offset)
    }

    /// The character device to open for `.chipOffset`; `nil` for a name, which is searched for.
    public var chipPath: String? {
        switch self {
        case .named: return nil
        case .chipOffset(let chip, _): return chip.hasPrefix("/") ? chip : "/dev/" + chip
        }
    }

    /// The text as a board writes it (`GPIO17`, `gpiochip4:17`).
    public var description: String {
        switch self {
        case .named(let name): return name
        case .chipOffset(let chip, let offset): return "\(chip):\(offset)"
        }
    }
}

/// Text that does not name a GPIO line.
public enum GPIOLineSpecifierError: Error, Sendable, Hashable, CustomStringConvertible {
    /// Nothing at all.
    case empty
    /// Text before or after the name is whitespace, or a chip name contains it.
    case surroundingWhitespace(String)
    /// `:offset` with nothing before the colon.
    case missingChip(String)
    /// A chip that is neither a plain name (`gpiochip4`) nor an absolute path (`/dev/gpiochip4`).
    case badChip(String, chip: String)
    /// What follows the colon is not a line offset.
    case badOffset(String, offset: String)

    /// What is wrong, quoting the text.
    public var description: String {
        switch self {
        case .empty:
            return "empty GPIO line: expected a line name (GPIO17) or chip:offset (gpiochip0:17)"
        case .surroundingWhitespace(let text):
            return "GPIO line \"\(text)\" has stray whitespace"
        case .missingChip(let text):
            return "GPIO line \"\(text)\" has no chip before the colon (expected e.g. gpiochip0:17)"
        case .badChip(let text, let chip):
            return "GPIO line \"\(text)\": chip \"\(chip)\" must be a name like gpiochip0 or a path like /dev/gpiochip0"
        case .badOffset(let text, let offset):
            return "GPIO line \"\(text)\": offset \"\(offset)\" is not a line number (0, 1, 2, …)"
        }
    }
}
