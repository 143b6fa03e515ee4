#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import HapticRuntime

/// What `hapticboard inspect` reports about one content file.
struct ContentSummary: Encodable {
    /// A parameter curve, summarised.
    struct Curve: Encodable {
        var parameter: String
        var time: Double
        var controlPoints: Int
        /// Seconds from the curve's first to its last control point.
        var span: Double
    }

    /// A dynamic parameter: a value that takes effect at a time and holds.
    struct Parameter: Encodable {
        var parameter: String
        var value: Double
        var time: Double
    }

    var file: String
    var format: String
    var duration: Double
    var eventCount: Int
    /// Event count by AHAP event type (types with no events are left out).
    var events: [String: Int]
    var curves: [Curve]
    var parameters: [Parameter]
    var warnings: [String]
    /// The clip of a `.haptic` file or a sound.
    var clip: ClipSummary?
    /// The compiled program, with `--program`.
    var program: ProgramListing?

    init(file: String, content: LoadedContent, program: ProgramListing?) {
        let pattern = content.pattern
        self.file = file
        format = content.format.rawValue
        duration = pattern.duration
        eventCount = pattern.events.count
        events = Dictionary(grouping: pattern.events, by: \.type.rawValue).mapValues(\.count)
        curves = pattern.parameterCurves.map { curve in
            let times = curve.controlPoints.map(\.time)
            return Curve(parameter: curve.id.rawValue, time: curve.time, controlPoints: curve.controlPoints.count, span: (times.max() ?? 0) - (times.min() ?? 0))
        }
        parameters = pattern.parameters.map { Parameter(parameter: $0.id.rawValue, value: $0.value, time: $0.time) }
        warnings = content.warnings.map(\.description)
        clip = content.clip.map(ClipSummary.init)
        self.program = program
    }

    /// The text form: one heading line, then indented facts.
    var text: String {
        var lines = ["\(file): \(format), \(eventCount) event(s), \(Self.number(duration)) s"]
        lines += clip?.lines ?? []
        for type in HapticEventType.allCases {
            if let count = events[type.rawValue] { lines.append("  \(type.rawValue): \(count)") }
        }
        for curve in curves {
            lines.append("  curve \(curve.parameter) at \(Self.number(curve.time)) s: \(curve.controlPoints) control points over \(Self.number(curve.span)) s")
        }
        for parameter in parameters {
            lines.append("  parameter \(parameter.parameter) = \(Self.number(parameter.value)) at \(Self.number(parameter.time)) s")
        }
        lines += warnings.map { "  \($0)" }
        if let program { lines.append(program.text.split(separator: "\n").map { "  \($0)" }.joined(separator: "\n")) }
        return lines.joined(separator: "\n")
    }

    /// Up to three decimals, no trailing zeros.
    static func number(_ value: Double) -> String {
        var text = String(format: "%.3f", value)
        while text.contains("."), text.hasSuffix("0") { text.removeLast() }
        if text.hasSuffix(".") { text.removeLast() }
        return text
    }
}
