/// The amplitude envelope of a sound as the design tools draw it: an RMS over a short window,
/// followed by a peak follower that rises at most at the attack rate, holds each peak for the hold
/// time and then falls at most at the release rate.
///
/// Attack and release are slew rates — the time to move through full scale — rather than
/// exponential time constants, so a sound whose level changes more slowly than the release is
/// followed exactly (a 100 ms release tracks any fade longer than 100 ms per full scale), and
/// between the cycles of a tone the envelope dips by at most release-rate × (period − hold).
struct AmplitudeFollower {
    private let window: Int
    private let attackStep: Float
    private let releaseStep: Float
    private let holdSamples: Int
    private var squares: [Float]
    private var squareIndex = 0
    private var sumOfSquares: Double = 0
    private var envelope: Float = 0
    private var holdLeft = 0

    init(sampleRate: Double, settings: SoundAnalysisSettings) {
        window = max(1, Int((settings.rmsWindowMs / 1000 * sampleRate).rounded()))
        // Per-sample steps; a zero time is an unlimited step.
        attackStep = settings.attackMs > 0 ? Float(1000 / (settings.attackMs * sampleRate)) : .infinity
        releaseStep = settings.releaseMs > 0 ? Float(1000 / (settings.releaseMs * sampleRate)) : .infinity
        holdSamples = Int((settings.holdMs / 1000 * sampleRate).rounded())
        squares = Array(repeating: 0, count: window)
    }

    /// The envelope after one more sample.
    mutating func process(_ sample: Float) -> Float {
        let square = sample * sample
        sumOfSquares += Double(square - squares[squareIndex])
        squares[squareIndex] = square
        squareIndex = squareIndex + 1 == window ? 0 : squareIndex + 1
        // Rounding in the running sum can leave it a hair below zero in silence.
        let rms = Float(max(0, sumOfSquares) / Double(window)).squareRoot()
        if rms >= envelope {
            envelope = min(rms, envelope + attackStep)
            holdLeft = holdSamples
        } else if holdLeft > 0 {
            holdLeft -= 1
        } else {
            envelope = max(rms, envelope - releaseStep)
        }
        return envelope
    }

    /// The envelope of `samples`, sampled every `interval` seconds from 0 to the end (the last
    /// point at the end itself), capped at 1.
    static func envelope(of samples: [Float], sampleRate: Double, settings: SoundAnalysisSettings) -> [EnvelopePoint] {
        var follower = AmplitudeFollower(sampleRate: sampleRate, settings: settings)
        let step = max(1, Int((settings.updateIntervalMs / 1000 * sampleRate).rounded()))
        var points: [EnvelopePoint] = [EnvelopePoint(time: 0, value: 0)]
        points.reserveCapacity(samples.count / step + 2)
        var value: Float = 0
        for (index, sample) in samples.enumerated() {
            value = follower.process(sample)
            if (index + 1) % step == 0 {
                points.append(EnvelopePoint(time: Double(index + 1) / sampleRate, value: Double(min(1, value))))
            }
        }
        let end = Double(samples.count) / sampleRate
        if let last = points.last, last.time < end {
            points.append(EnvelopePoint(time: end, value: Double(min(1, value))))
        }
        return points
    }
}
