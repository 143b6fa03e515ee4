import FoundationEssentials
import Glibc
import ActuatorHAL

/// What the spectrum says at one moment: brightness (the spectral centroid below the low-pass,
/// in Hz; nil when the frame is too quiet to have one) and onset strength (spectral flux: the sum
/// of the magnitude increases since the previous frame).
struct SpectralFrame: Sendable, Hashable {
    /// The frame's centre, in seconds.
    var time: Double
    var centroid: Double?
    var flux: Double
}

/// Short-time spectra of a sound (Hann-windowed frames of `fftSize`, a new one every
/// fftSize / overlap samples, centred on their times from 0 to the end), through the platform's FFT.
enum SpectralFrames {
    /// A frame quieter than this (mean magnitude per bin below the low-pass, in full-scale sine
    /// amplitude) has no centroid: the centroid of noise-floor hiss would swing wildly.
    static let quietFrameLevel = 1e-4

    static func frames(of samples: [Float], sampleRate: Double, settings: SoundAnalysisSettings, spectrum: (Int) -> (any MagnitudeSpectrum)?) -> [SpectralFrame] {
        let size = settings.fftSize
        guard let fft = spectrum(size), !samples.isEmpty else { return [] }
        let hop = max(1, size / max(1, settings.overlap))
        let window = (0..<size).map { Float(0.5 - 0.5 * cos(2 * Double.pi * Double($0) / Double(size))) }
        // Magnitudes scaled so a full-scale sine reads about 1 in its bin.
        let scale = Float(2 / window.reduce(0, +))
        let binWidth = sampleRate / Double(size)
        let lowpassBin = min(fft.binCount - 1, Int(settings.centroidLowpassHz / binWidth))
        var frame = [Float](repeating: 0, count: size)
        var magnitudes = [Float](repeating: 0, count: fft.binCount)
        var previous = [Float](repeating: 0, count: fft.binCount)
        var frames: [SpectralFrame] = []
        frames.reserveCapacity(samples.count / hop + 2)
        var center = 0
        samples.withUnsafeBufferPointer { source in
            window.withUnsafeBufferPointer { window in
                while center <= source.count {
                    let start = center - size / 2
                    // Only the frames at the ends reach past the sound; they are zero-padded.
                    let first = max(0, -start), last = min(size, source.count - start)
                    frame.withUnsafeMutableBufferPointer { frame in
                        for index in 0..<size { frame[index] = index >= first && index < last ? source[start + index] * window[index] : 0 }
                    }
                    frame.withUnsafeBufferPointer { input in
                        magnitudes.withUnsafeMutableBufferPointer { output in fft.magnitudes(of: input, into: output) }
                    }
                    var flux: Float = 0
                    var weighted: Float = 0
                    var total: Float = 0
                    magnitudes.withUnsafeMutableBufferPointer { magnitudes in
                        previous.withUnsafeMutableBufferPointer { previous in
                            for bin in 0..<magnitudes.count {
                                let magnitude = magnitudes[bin] * scale
                                flux += max(0, magnitude - previous[bin])
                                previous[bin] = magnitude
                                if bin >= 1 && bin <= lowpassBin {
                                    weighted += magnitude * Float(bin)
                                    total += magnitude
                                }
                            }
                        }
                    }
                    let loud = lowpassBin > 0 && Double(total) / Double(lowpassBin) >= quietFrameLevel
                    frames.append(SpectralFrame(time: Double(center) / sampleRate, centroid: loud ? Double(weighted / total) * binWidth : nil, flux: Double(flux)))
                    center += hop
                }
            }
        }
        return frames
    }
}
