import ActuatorHAL
import HardwareMocks

/// Why the command line was refused.
enum CompanionOptionsError: Error, CustomStringConvertible {
    case unknownArgument(String)
    case missingValue(option: String)
    case badValue(option: String, value: String, expected: String)

    var description: String {
        switch self {
        case .unknownArgument(let argument):
            return "unknown argument '\(argument)'\n\(CompanionOptions.usage)"
        case .missingValue(let option):
            return "\(option) needs a value\n\(CompanionOptions.usage)"
        case .badValue(let option, let value, let expected):
            return "\(option) \(value): expected \(expected)"
        }
    }
}

/// The companion's command line.
struct CompanionOptions {
    static let usage = """
    usage: hapticboard-chip [--bus /dev/i2c-N] [--address 0x5a] [--variant drv2605l|drv2605|drv2604l|drv2604]
                            [--enable-value FILE] [--poll-us N] [--verbose]
    signals: SIGUSR1 over-temperature, SIGUSR2 over-current, SIGHUP power-on reset (EN high)
    """

    /// The i2c-dev node of the register file that stands in for the chip (i2c-stub).
    var busPath = "/dev/i2c-0"
    var address: I2CAddress = 0x5A
    var variant: DRV2605Model.Variant = .drv2605L
    /// A file holding 0 or 1: the EN pin as the outside world drives it (gpio-sim's `sim_gpioN/value`).
    /// Without one, EN counts as always high.
    var enableValuePath: String?
    var pollInterval: Duration = .microseconds(1000)
    /// Log every write the host made and every register the model changed.
    var verbose = false

    init(arguments: [String]) throws(CompanionOptionsError) {
        var remaining = arguments[...]
        func value(for option: String) throws(CompanionOptionsError) -> String {
            guard let value = remaining.popFirst() else { throw .missingValue(option: option) }
            return value
        }
        while let argument = remaining.popFirst() {
            switch argument {
            case "--bus":
                busPath = try value(for: argument)
            case "--address":
                let text = try value(for: argument)
                let digits = text.hasPrefix("0x") ? String(text.dropFirst(2)) : text
                guard let number = Int(digits, radix: text.hasPrefix("0x") ? 16 : 10), let parsed = I2CAddress(number) else {
                    throw .badValue(option: argument, value: text, expected: "a 7-bit address such as 0x5a")
                }
                address = parsed
            case "--variant":
                let text = try value(for: argument)
                guard let parsed = DRV2605Model.Variant.allCases.first(where: { "\($0)".lowercased() == text.lowercased() }) else {
                    throw .badValue(option: argument, value: text, expected: "drv2605l, drv2605, drv2604l or drv2604")
                }
                variant = parsed
            case "--enable-value":
                enableValuePath = try value(for: argument)
            case "--poll-us":
                let text = try value(for: argument)
                guard let microseconds = Int(text), microseconds > 0 else {
                    throw .badValue(option: argument, value: text, expected: "a positive number of microseconds")
                }
                pollInterval = .microseconds(microseconds)
            case "--verbose":
                verbose = true
            default:
                throw .unknownArgument(argument)
            }
        }
    }
}
