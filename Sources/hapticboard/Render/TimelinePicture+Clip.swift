import HapticRuntime

extension TimelinePicture {
    /// The clip's amplitude and frequency envelopes as lines and each emphasis as a dot at its
    /// amplitude (coloured by its frequency), in the second lane: what the designer drew, beside
    /// the events and drive made from it.
    func clipEnvelopes(_ clip: HapticClip) -> [String] {
        func line(_ points: [(time: Double, value: Double)]) -> String {
            points.map { "\(Self.format(x($0.time))),\(Self.format(y($0.value, lane: 1)))" }.joined(separator: " ")
        }
        var parts = [##"<polyline class="clip-amplitude" points="\##(line(clip.amplitude.map { ($0.time, $0.amplitude) }))" fill="none" stroke="#1f77b4" stroke-width="2"/>"##]
        if let frequency = clip.clampedFrequency(endingAt: clip.duration) {
            parts.append(##"<polyline class="clip-frequency" points="\##(line(frequency.map { ($0.time, $0.frequency) }))" fill="none" stroke="#ff7f0e" stroke-width="2"/>"##)
        }
        for breakpoint in clip.amplitude {
            guard let emphasis = breakpoint.emphasis else { continue }
            let tooltip = "emphasis at \(ContentSummary.number(breakpoint.time)) s: amplitude \(ContentSummary.number(emphasis.amplitude)), frequency \(ContentSummary.number(emphasis.frequency))"
            parts.append(#"<circle class="clip-emphasis" cx="\#(Self.format(x(breakpoint.time)))" cy="\#(Self.format(y(emphasis.amplitude, lane: 1)))" r="5" fill="\#(Self.colour(sharpness: emphasis.frequency))"><title>\#(tooltip)</title></circle>"#)
        }
        return parts
    }
}
