import Foundation
import ActuatorHAL
import ActuatorHALLinux
import HardwareMocks

/// Measures an interleaved capture holding sound on one channel and an actuator's drive on
/// another. Stretches of signal are found with a threshold of 0.001 of full scale (33 of 32767:
/// far above the capture's true silence, which is exact zero, and far below any real content) and
/// a 10 ms gap, so a tone's zero crossings and noise's quiet samples do not split a stretch.
struct CaptureMeasurement {
    static let threshold = 0.001
    static let gapSeconds = 0.01
    /// How far around a sound stretch's first loud sample the reference is searched for.
    static let searchFrames = 240

    let capturePath: String
    let referencePath: String
    let soundChannel: Int
    let driveChannel: Int
    let frequencyRange: ClosedRange<Double>

    init(arguments: ArraySlice<String>) throws(CaptureToolError) {
        let options = try CaptureOptions(arguments, allowed: ["--reference", "--sound-channel", "--drive-channel", "--frequency-range"])
        capturePath = options.positional
        referencePath = try options.string("--reference")
        soundChannel = try Self.channelIndex(options, "--sound-channel")
        driveChannel = try Self.channelIndex(options, "--drive-channel")
        let range = (try? options.string("--frequency-range")) ?? "20:2000"
        let bounds = range.split(separator: ":").compactMap { Double($0) }
        guard bounds.count == 2, bounds[0] > 0, bounds[1] > bounds[0] else {
            throw .usage("--frequency-range \(range): expected LOW:HIGH in hertz")
        }
        frequencyRange = bounds[0]...bounds[1]
    }

    /// The zero-based index of the one-based channel number given with `option`.
    private static func channelIndex(_ options: CaptureOptions, _ option: String) throws(CaptureToolError) -> Int {
        let number = try options.number(option)
        guard number >= 1, number <= 64, number.rounded() == number else { throw .usage("\(option): expected a channel number from 1 to 64") }
        return Int(number) - 1
    }

    /// The measurements, one `key value` a line; keys of the k-th sound or drive stretch carry k
    /// (from 1).
    func run() throws -> [String] {
        let capture = try SoundFileDecoder().decode(path: capturePath)
        let reference = try SoundFileDecoder().decode(path: referencePath)
        guard reference.sampleRate == capture.sampleRate, reference.channels == 1 else {
            throw CaptureToolError.capture("the reference must be mono at the capture's rate (\(capture.sampleRate) Hz); it is \(reference.channels) channel(s) at \(reference.sampleRate) Hz")
        }
        guard [soundChannel, driveChannel].allSatisfy({ (0..<capture.channels).contains($0) }) else {
            throw CaptureToolError.capture("the capture has \(capture.channels) channel(s)")
        }
        let gap = Int(Self.gapSeconds * Double(capture.sampleRate))
        let sound = capture.channel(soundChannel).map(Double.init)
        let drive = capture.channel(driveChannel).map(Double.init)
        let model = reference.channel(0).map(Double.init)
        var lines = ["frames \(capture.frameCount)", "rate \(capture.sampleRate)", "reference.frames \(reference.frameCount)"]

        let soundSpans = SignalMeasurement.soundingSpans(in: sound, above: Self.threshold, minimumGap: gap)
        lines.append("sound.spans \(soundSpans.count)")
        for (number, span) in zip(1..., soundSpans) {
            lines.append("sound.\(number).start \(span.lowerBound)")
            lines.append("sound.\(number).frames \(span.count)")
            let lags = span.lowerBound - Self.searchFrames...span.lowerBound + Self.searchFrames
            if let found = SignalMeasurement.bestAlignment(of: model, in: sound, lags: lags) {
                lines.append("sound.\(number).lag \(found.lag)")
                lines.append("sound.\(number).correlation \(rounded(found.correlation, places: 4))")
            }
        }

        let driveSpans = SignalMeasurement.soundingSpans(in: drive, above: Self.threshold, minimumGap: gap)
        lines.append("drive.spans \(driveSpans.count)")
        for (number, span) in zip(1..., driveSpans) {
            lines.append("drive.\(number).start \(span.lowerBound)")
            lines.append("drive.\(number).frames \(span.count)")
            lines.append("drive.\(number).peak \(rounded(SignalMeasurement.peak(of: drive, in: span), places: 4))")
            if let frequency = SignalMeasurement.dominantFrequency(of: Array(drive[span]), sampleRate: capture.sampleRate, in: frequencyRange) {
                lines.append("drive.\(number).frequency \(rounded(frequency, places: 2))")
            }
        }
        return lines
    }

    private func rounded(_ value: Double, places: Int) -> String {
        String(format: "%.\(places)f", value)
    }
}
