import ActuatorHAL
import Foundation
import HardwareMocks

/// `hapticboard-capture`: the kernel lane's look at what came out of ALSA's Loopback card.
///
/// `burst FILE` writes the reference sound the lane plays (seeded noise: its cross-correlation
/// has one sharp peak, so the sound's place in a capture is found to the frame). `measure CAPTURE`
/// reads an `arecord` capture and prints what the lane's audio scenarios compare, one `key value`
/// a line: where each sound and each stretch of drive starts, how well the sound matches the
/// reference there, each drive stretch's dominant frequency and length.
@main
struct CaptureTool {
    static let usage = """
    usage: hapticboard-capture burst FILE [--milliseconds N] [--rate HZ]
           hapticboard-capture measure CAPTURE --reference FILE --sound-channel N --drive-channel N
                                       [--frequency-range LOW:HIGH]
    """

    static func main() {
        var arguments = Array(CommandLine.arguments.dropFirst())[...]
        do {
            switch arguments.popFirst() {
            case "burst":
                let request = try NoiseBurst(arguments: arguments)
                try request.write()
            case "measure":
                let measurement = try CaptureMeasurement(arguments: arguments)
                print(try measurement.run().joined(separator: "\n"))
            default:
                throw CaptureToolError.usage("expected 'burst' or 'measure'")
            }
        } catch {
            FileHandle.standardError.write(Data("hapticboard-capture: error: \(error)\n".utf8))
            exit(error is CaptureToolError ? 2 : 1)
        }
    }
}

/// A command line the tool cannot run, or a capture it cannot measure.
enum CaptureToolError: Error, CustomStringConvertible {
    case usage(String)
    case capture(String)

    var description: String {
        switch self {
        case .usage(let problem): "\(problem)\n\(CaptureTool.usage)"
        case .capture(let problem): problem
        }
    }
}

/// `--name value` options after a command's positional argument.
struct CaptureOptions {
    let positional: String
    private var values: [String: String] = [:]

    init(_ arguments: ArraySlice<String>, allowed: Set<String>) throws(CaptureToolError) {
        var remaining = arguments
        guard let first = remaining.popFirst(), !first.hasPrefix("--") else { throw .usage("a file is missing") }
        positional = first
        while let option = remaining.popFirst() {
            guard allowed.contains(option) else { throw .usage("unknown option '\(option)'") }
            guard let value = remaining.popFirst() else { throw .usage("\(option) needs a value") }
            values[option] = value
        }
    }

    func string(_ option: String) throws(CaptureToolError) -> String {
        guard let value = values[option] else { throw .usage("\(option) is required") }
        return value
    }

    func number(_ option: String, default fallback: Double? = nil) throws(CaptureToolError) -> Double {
        guard let text = values[option] else {
            if let fallback { return fallback }
            throw .usage("\(option) is required")
        }
        guard let value = Double(text), value.isFinite else { throw .usage("\(option) \(text): expected a number") }
        return value
    }
}
