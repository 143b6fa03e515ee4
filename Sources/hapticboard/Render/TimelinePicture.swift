import ActuatorHAL
import Foundation
import HapticRuntime
import HardwareMocks

/// A pattern's timeline as a hand-written SVG: events (height = intensity, colour = sharpness),
/// parameter curves and dynamic parameters, the compiled drive from the simulated chip, and the
/// acceleration envelope the LRA model gives for it — all on one axis in seconds. Every event is
/// one `<g class="event">`, so the picture can be checked by counting.
struct TimelinePicture {
    var title: String
    var pattern: HapticPattern
    /// A `.haptic` clip's (or a sound's) envelopes, drawn in the second lane instead of the curves
    /// made from them.
    var clip: HapticClip? = nil
    var playback: SimulatedPlayback
    /// Seconds shown.
    var span: Double

    static let width = 1000.0
    static let left = 70.0
    static let right = 20.0
    static let laneHeight = 110.0
    static let laneGap = 30.0
    static let top = 40.0
    static let lanes = ["events", "curves", "drive", "acceleration"]

    var height: Double { Self.top + Double(Self.lanes.count) * (Self.laneHeight + Self.laneGap) + 30 }

    func x(_ time: Double) -> Double {
        Self.left + time / max(span, 1e-6) * (Self.width - Self.left - Self.right)
    }

    /// The y of `value` (0…1) in lane `index`.
    func y(_ value: Double, lane index: Int) -> Double {
        let bottom = Self.top + Double(index) * (Self.laneHeight + Self.laneGap) + Self.laneHeight
        return bottom - min(1, max(0, value)) * Self.laneHeight
    }

    var svg: String {
        var body: [String] = []
        body.append(#"<text x="\#(Self.left)" y="22" font-size="16" font-weight="bold">\#(Self.escape(title))</text>"#)
        body += lanesAndAxis()
        body += events()
        body += clip.map(clipEnvelopes) ?? curves()
        body.append(drivePath())
        body.append(accelerationPath())
        return """
            <?xml version="1.0" encoding="UTF-8"?>
            <svg xmlns="http://www.w3.org/2000/svg" width="\(Int(Self.width))" height="\(Int(height))" viewBox="0 0 \(Int(Self.width)) \(Int(height))" font-family="sans-serif" font-size="11">
            <rect width="100%" height="100%" fill="white"/>
            \(body.joined(separator: "\n"))
            </svg>

            """
    }

    private func lanesAndAxis() -> [String] {
        var parts: [String] = []
        let second = clip == nil ? "curves and dynamic parameters" : ".haptic envelopes: amplitude (blue), frequency (orange), emphasis (dots: amplitude, colour: frequency)"
        let labels = ["events (height: intensity, colour: sharpness)", second, "compiled drive (simulated chip, |amplitude|)", "acceleration (LRA model, envelope)"]
        for (index, label) in labels.enumerated() {
            let top = y(1, lane: index)
            parts.append(#"<g class="lane"><rect x="\#(Self.left)" y="\#(top)" width="\#(Self.width - Self.left - Self.right)" height="\#(Self.laneHeight)" fill="rgb(246,246,246)" stroke="rgb(204,204,204)"/><text x="\#(Self.left + 4)" y="\#(top - 4)">\#(label)</text></g>"#)
        }
        let step = Self.tickStep(for: span)
        var tick = 0.0
        let axisY = y(0, lane: Self.lanes.count - 1) + 16
        var ticks: [String] = []
        while tick <= span + 1e-9 {
            let position = Self.format(x(tick))
            ticks.append(#"<line x1="\#(position)" y1="\#(Self.top)" x2="\#(position)" y2="\#(axisY - 12)" stroke="rgb(221,221,221)"/><text x="\#(position)" y="\#(axisY)" text-anchor="middle">\#(ContentSummary.number(tick))</text>"#)
            tick += step
        }
        parts.append(#"<g class="axis">\#(ticks.joined())<text x="\#(Self.width - Self.right)" y="\#(axisY + 14)" text-anchor="end">time (s)</text></g>"#)
        return parts
    }

    private func events() -> [String] {
        pattern.events.enumerated().map { index, event in
            let intensity = event.value(of: .hapticIntensity)
            let sharpness = event.value(of: .hapticSharpness)
            let colour = Self.colour(sharpness: sharpness)
            let start = x(event.time)
            let top = y(intensity, lane: 0)
            let base = y(0, lane: 0)
            let mark: String
            if event.type == .hapticTransient {
                mark = #"<line x1="\#(Self.format(start))" y1="\#(Self.format(base))" x2="\#(Self.format(start))" y2="\#(Self.format(top))" stroke="\#(colour)" stroke-width="3"/><circle cx="\#(Self.format(start))" cy="\#(Self.format(top))" r="4" fill="\#(colour)"/>"#
            } else {
                let width = max(1, x(event.time + (event.duration ?? 0)) - start)
                let dash = event.type.isHaptic ? "" : #" stroke-dasharray="4 2""#
                mark = #"<rect x="\#(Self.format(start))" y="\#(Self.format(top))" width="\#(Self.format(width))" height="\#(Self.format(base - top))" fill="\#(colour)" fill-opacity="0.6" stroke="\#(colour)"\#(dash)/>"#
            }
            let tooltip = "\(event.type.rawValue) at \(ContentSummary.number(event.time)) s, intensity \(ContentSummary.number(intensity)), sharpness \(ContentSummary.number(sharpness))"
            return #"<g class="event" data-index="\#(index)" data-type="\#(event.type.rawValue)"><title>\#(tooltip)</title>\#(mark)</g>"#
        }
    }

    private func curves() -> [String] {
        var parts: [String] = []
        for curve in pattern.parameterCurves {
            let points = curve.controlPoints.map { point in
                "\(Self.format(x(curve.time + point.time))),\(Self.format(y(Self.unit(point.value, curve.id), lane: 1)))"
            }
            parts.append(#"<polyline class="curve" data-parameter="\#(curve.id.rawValue)" points="\#(points.joined(separator: " "))" fill="none" stroke="\#(Self.curveColour(curve.id))" stroke-width="2"/>"#)
        }
        for parameter in pattern.parameters {
            let px = Self.format(x(parameter.time))
            let py = Self.format(y(Self.unit(parameter.value, parameter.id), lane: 1))
            parts.append(#"<circle class="parameter" data-parameter="\#(parameter.id.rawValue)" cx="\#(px)" cy="\#(py)" r="4" fill="\#(Self.curveColour(parameter.id))"><title>\#(parameter.id.rawValue) = \#(ContentSummary.number(parameter.value))</title></circle>"#)
        }
        return parts
    }

    private func drivePath() -> String {
        var points: [String] = []
        var level = 0.0
        var time = 0.0
        func add(_ t: Double, _ value: Double) {
            points.append("\(Self.format(x(min(max(t, 0), span)))),\(Self.format(y(value, lane: 2)))")
        }
        add(0, 0)
        for change in playback.drive.changes {
            let t = (change.time - playback.zero).secondsValue
            add(t, level)
            level = abs(change.amplitude)
            add(t, level)
            time = t
        }
        add(max(time, span), level)
        return #"<polyline class="drive" points="\#(points.joined(separator: " "))" fill="none" stroke="rgb(34,170,102)" stroke-width="1.5"/>"#
    }

    private func accelerationPath() -> String {
        let trace = playback.acceleration
        let window = Duration.nanoseconds(Int64(max(span, 0.01) / 400 * 1e9))
        let envelope = trace.envelope(window: window)
        let peak = max(envelope.max() ?? 1, 1e-9)
        let scale = peak > 1 ? 1 / peak : 1
        let points = envelope.enumerated().map { index, value in
            let t = (trace.start - playback.zero).secondsValue + Double(index) * window.secondsValue
            return "\(Self.format(x(t))),\(Self.format(y(value * scale, lane: 3)))"
        }
        return #"<polyline class="acceleration" points="\#(points.joined(separator: " "))" fill="none" stroke="rgb(170,51,51)" stroke-width="1.5"/>"#
    }

    /// A dynamic-parameter value on a 0…1 lane: multipliers as they are, additive controls (−1…1) shifted.
    static func unit(_ value: Double, _ id: DynamicParameterID) -> Double {
        id.isMultiplier ? value : (value + 1) / 2
    }

    /// Blue for dull (0) through orange for sharp (1).
    static func colour(sharpness: Double) -> String {
        let s = min(1, max(0, sharpness))
        let red = Int(40 + 200 * s), green = Int(90 + 40 * s), blue = Int(220 - 190 * s)
        return "rgb(\(red),\(green),\(blue))"
    }

    static func curveColour(_ id: DynamicParameterID) -> String {
        switch id {
        case .hapticIntensityControl: "#1f77b4"
        case .hapticSharpnessControl: "#ff7f0e"
        default: "#888"
        }
    }

    /// 1, 2 or 5 × a power of ten, for about ten ticks.
    static func tickStep(for span: Double) -> Double {
        let raw = max(span, 1e-3) / 10
        let power = pow(10, floor(log10(raw)))
        return [1.0, 2, 5, 10].map { $0 * power }.first { $0 >= raw } ?? raw
    }

    static func format(_ value: Double) -> String { String(format: "%.1f", value) }

    static func escape(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;").replacingOccurrences(of: ">", with: "&gt;").replacingOccurrences(of: "\"", with: "&quot;")
    }
}
