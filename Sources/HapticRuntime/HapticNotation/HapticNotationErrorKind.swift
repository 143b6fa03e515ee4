extension HapticNotationError {
    /// Every way a notation text can be wrong; each case knows its message and, where it can, a hint.
    public enum Kind: Sendable, Hashable {
        /// A character that is not part of the language.
        case unexpectedCharacter(Character)
        /// `.5`: the rest marker touching a number.
        case numberWithoutLeadingZero
        /// Digits that do not form a number (`1.2.3`, a count with a fraction, an overflow).
        case invalidNumber(String)
        /// A number followed by a unit other than `s` (seconds) or `x` (repeat count).
        case unknownUnit(String)
        /// The indentation mixes tabs and spaces; `unitLine` is where the unit was set.
        case mixedIndentation(unitLine: Int?)
        /// The indentation is not a whole number of units.
        case indentationNotMultiple(width: Int, unit: Int, unitLine: Int)
        /// A line more than one level deeper than the line before it.
        case indentationTooDeep(unitLine: Int)
        /// An indented line under a line that opens no block.
        case unexpectedIndentation
        /// Blocks nested deeper than the reader allows.
        case nestingTooDeep(limit: Int)
        /// A `…:` header with no indented lines below it.
        case missingBlock(header: String)
        /// Something else was expected here; `found` is nil at the end of the line.
        case unexpectedToken(found: String?, expected: String, suggestion: String?)
        /// A time without its `s` unit.
        case timeWithoutUnit(String)
        /// A loop without its `Nx` repeat count.
        case missingRepeatCount(found: String?)
        /// A name that no earlier `define` introduced.
        case undefinedName(String, definedOnLine: Int?, suggestion: String?)
        /// A `define` whose body uses its own name.
        case recursiveDefinition(String)
        /// `define` inside another block.
        case defineNotAtTopLevel
        /// `define` of a keyword, property, alias or curve name.
        case reservedName(String)
        /// A property name that no block knows.
        case unknownProperty(String, block: String, suggestion: String?)
        /// A property that exists but not in this kind of block.
        case propertyNotAllowed(String, block: String)
        /// A property line outside a `continuous` or `ramp` block.
        case propertyOutsideBlock(String)
        /// The same property twice in one block.
        case duplicateProperty(String, firstLine: Int)
        /// A transient line with an intensity but no sharpness.
        case missingSharpness
        /// A transient written sharpness first.
        case sharpnessBeforeIntensity(String)
        /// A value outside what the language accepts (ADSR points, cubic x, durations, counts);
        /// `allowed` completes "use a value …", e.g. `in 0–1`.
        case valueOutOfRange(what: String, value: Double, allowed: String)
        /// ADSR points that go backwards in time.
        case adsrOutOfOrder
        /// A ramp whose interval reaches zero or below (a curve that overshoots).
        case rampIntervalNotPositive
        /// A ramp that would emit more pulses than allowed.
        case tooManyRampSteps(limit: Int)
        /// The pattern would hold more events than allowed.
        case tooManyEvents(limit: Int)
        /// Loops and references multiply to more work than allowed.
        case tooMuchWork(limit: Int)
        /// An event would end later than allowed.
        case patternTooLong(limit: Double)
        /// Definitions that use definitions more levels deep than allowed.
        case referencesTooDeep(limit: Int)

        /// One line saying what is wrong.
        public var message: String {
            switch self {
            case .unexpectedCharacter(let character):
                "unexpected character '\(character)'"
            case .numberWithoutLeadingZero:
                "a number must start with a digit"
            case .invalidNumber(let text):
                "'\(text)' is not a valid number here"
            case .unknownUnit(let unit):
                "unknown unit '\(unit)'"
            case .mixedIndentation:
                "indentation mixes tabs and spaces"
            case .indentationNotMultiple(let width, let unit, _):
                "indentation of \(width) is not a multiple of the indent unit (\(unit))"
            case .indentationTooDeep:
                "line is indented more than one level deeper than the line before"
            case .unexpectedIndentation:
                "unexpected indentation"
            case .nestingTooDeep(let limit):
                "blocks are nested more than \(limit) levels deep"
            case .missingBlock(let header):
                "'\(header)' needs an indented block below it"
            case .unexpectedToken(let found?, let expected, _):
                "expected \(expected), found '\(found)'"
            case .unexpectedToken(nil, let expected, _):
                "expected \(expected) before the end of the line"
            case .timeWithoutUnit(let text):
                "the time '\(text)' has no unit"
            case .missingRepeatCount(let found?):
                "expected a repeat count such as '3x', found '\(found)'"
            case .missingRepeatCount(nil):
                "expected a repeat count such as '3x' before the end of the line"
            case .undefinedName(let name, _, _):
                "'\(name)' is not defined"
            case .recursiveDefinition(let name):
                "'\(name)' is used inside its own definition"
            case .defineNotAtTopLevel:
                "'define' is only allowed at the top level"
            case .reservedName(let name):
                "'\(name)' is a word of the language and cannot be defined"
            case .unknownProperty(let name, let block, _):
                "unknown property '\(name)' in '\(block)'"
            case .propertyNotAllowed(let name, let block):
                "'\(name)' is not a property of '\(block)'"
            case .propertyOutsideBlock(let name):
                "'\(name)' is a property and belongs inside a 'continuous' or 'ramp' block"
            case .duplicateProperty(let name, let firstLine):
                "'\(name)' is already given on line \(firstLine)"
            case .missingSharpness:
                "expected a sharpness after the intensity"
            case .sharpnessBeforeIntensity(let word):
                "'\(word)' is a sharpness; a haptic starts with its intensity"
            case .valueOutOfRange(let what, let value, _):
                "\(what) \(NotationNumberFormat.text(value)) is out of range"
            case .adsrOutOfOrder:
                "adsr points must not go backwards: attack ≤ decay ≤ release"
            case .rampIntervalNotPositive:
                "the ramp interval must stay above 0 s"
            case .tooManyRampSteps(let limit):
                "the ramp would play more than \(limit) pulses"
            case .tooManyEvents(let limit):
                "the pattern would hold more than \(limit) events"
            case .tooMuchWork(let limit):
                "loops and references expand to more than \(limit) steps"
            case .patternTooLong(let limit):
                "the pattern would last longer than \(NotationNumberFormat.text(limit)) s"
            case .referencesTooDeep(let limit):
                "definitions use definitions more than \(limit) levels deep"
            }
        }

        /// How to fix it, when the reader can tell.
        public var hint: String? {
            switch self {
            case .unexpectedCharacter("="):
                "write a property as 'name: value'"
            case .unexpectedCharacter(let character) where character == "-" || character == "–":
                "names use letters, digits and '_'; a ramp goes from one value to another with '>'"
            case .unexpectedCharacter:
                "comments start with '#'"
            case .numberWithoutLeadingZero:
                "write '0.5', and put a space after a rest: '. 0.5s'"
            case .invalidNumber:
                "numbers look like 0.25; repeat counts are whole numbers like 3x"
            case .unknownUnit:
                "times are in seconds ('0.3s'); repeat counts use 'x' ('3x')"
            case .mixedIndentation(let unitLine?), .indentationNotMultiple(_, _, let unitLine),
                 .indentationTooDeep(let unitLine):
                "indent with the same unit as line \(unitLine)"
            case .mixedIndentation(nil):
                "indent with spaces only or with tabs only"
            case .unexpectedIndentation:
                "only the lines below a header ending in ':' are indented"
            case .nestingTooDeep:
                "move inner blocks into a 'define' and use its name"
            case .missingBlock(let header):
                "indent the lines that belong to '\(header)' below it"
            case .unexpectedToken(_, _, let suggestion?):
                "did you mean '\(suggestion)'?"
            case .unexpectedToken:
                nil
            case .timeWithoutUnit(let text):
                "add the unit: '\(text)s'"
            case .missingRepeatCount:
                "write the count before the interval: 'loop 3x 0.25s:'"
            case .undefinedName(_, _, let suggestion?):
                "did you mean '\(suggestion)'?"
            case .undefinedName(let name, let line?, nil):
                "define '\(name)' before using it (its definition is on line \(line))"
            case .undefinedName(let name, nil, nil):
                "define '\(name)' before using it"
            case .recursiveDefinition:
                "a definition can only use names defined before it"
            case .defineNotAtTopLevel:
                "move the 'define' to the start of a line without indentation"
            case .reservedName:
                "choose another name"
            case .unknownProperty(_, _, let suggestion?):
                "did you mean '\(suggestion)'?"
            case .unknownProperty(_, let block, nil), .propertyNotAllowed(_, let block):
                block == "ramp"
                    ? "a ramp takes intensity, sharpness, interval and curve"
                    : "a continuous takes intensity, sharpness and adsr"
            case .propertyOutsideBlock:
                "indent it below 'continuous 1s:' or 'ramp 1s:'"
            case .duplicateProperty:
                "keep one of the two lines"
            case .missingSharpness:
                "add a sharpness: dull, balanced, sharp or a raw value like s0.5"
            case .sharpnessBeforeIntensity:
                "write the intensity first, as in 'loud sharp'"
            case .valueOutOfRange(_, _, let allowed):
                "use a value \(allowed)"
            case .adsrOutOfOrder:
                "each point is a fraction of the duration, e.g. 'adsr: 0.1, 0.3, 0.8, 1.0'"
            case .rampIntervalNotPositive:
                "use positive intervals, or a curve that stays between 0 and 1"
            case .tooManyRampSteps:
                "use a longer interval or a shorter ramp"
            case .tooManyEvents, .tooMuchWork:
                "use fewer repeats or shorter ramps"
            case .patternTooLong:
                "use shorter times or fewer repeats"
            case .referencesTooDeep:
                "define larger patterns directly instead of through long chains of names"
            }
        }
    }
}
