import HapticRuntime

/// What `inspect` says about a `.haptic` clip (or the clip derived from a sound): its duration
/// (the last amplitude breakpoint), breakpoint and emphasis counts, and its envelopes in brief.
struct ClipSummary: Encodable {
    /// One envelope in brief: range, time-weighted mean, and where it peaks.
    struct Envelope: Encodable {
        var minimum: Double
        var maximum: Double
        var mean: Double
        var peakTime: Double

        init?(_ points: [(time: Double, value: Double)]) {
            guard let first = points.first else { return nil }
            let maximum = points.map(\.value).max() ?? 0
            minimum = points.map(\.value).min() ?? 0
            self.maximum = maximum
            peakTime = points.first { $0.value == maximum }?.time ?? first.time
            // The mean of a linear envelope is the trapezoid area over its span.
            let span = (points.last?.time ?? first.time) - first.time
            let area = zip(points, points.dropFirst()).reduce(0.0) { $0 + ($1.1.time - $1.0.time) * ($1.0.value + $1.1.value) / 2 }
            mean = span > 0 ? area / span : first.value
        }

        var text: String {
            "\(ContentSummary.number(minimum))…\(ContentSummary.number(maximum)), mean \(ContentSummary.number(mean)), peak at \(ContentSummary.number(peakTime)) s"
        }
    }

    var version: String
    var duration: Double
    var amplitudeBreakpoints: Int
    var frequencyBreakpoints: Int?
    var emphasis: Int
    var amplitude: Envelope?
    var frequency: Envelope?
    /// The metadata fields given, by name.
    var metadata: [String: String]

    init(_ clip: HapticClip) {
        version = clip.version.description
        duration = clip.duration
        amplitudeBreakpoints = clip.amplitude.count
        frequencyBreakpoints = clip.frequency?.count
        emphasis = clip.emphasisCount
        amplitude = Envelope(clip.amplitude.map { ($0.time, $0.amplitude) })
        // As it plays: breakpoints past the clip's end clamped to it (see `HapticClip.pattern`).
        frequency = clip.clampedFrequency(endingAt: clip.duration).flatMap { Envelope($0.map { ($0.time, $0.frequency) }) }
        let fields = [("editor", clip.metadata.editor), ("author", clip.metadata.author), ("source", clip.metadata.source),
                      ("project", clip.metadata.project), ("description", clip.metadata.description),
                      ("tags", clip.metadata.tags.joined(separator: ", "))]
        metadata = Dictionary(uniqueKeysWithValues: fields.filter { !$0.1.isEmpty })
    }

    /// Indented lines for the text summary.
    var lines: [String] {
        var lines = ["  .haptic \(version): \(ContentSummary.number(duration)) s, \(amplitudeBreakpoints) amplitude breakpoint(s), "
            + (frequencyBreakpoints.map { "\($0) frequency breakpoint(s)" } ?? "no frequency envelope") + ", \(emphasis) emphasis"]
        if let amplitude { lines.append("  amplitude \(amplitude.text)") }
        if let frequency { lines.append("  frequency \(frequency.text)") }
        for (key, value) in metadata.sorted(by: { $0.key < $1.key }) { lines.append("  \(key): \(value)") }
        return lines
    }
}
