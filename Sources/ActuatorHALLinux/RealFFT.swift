import ActuatorHAL
import CDrivers

/// A forward FFT of real frames of one size, computed by kissfft (BSD-licensed, Debian's
/// `libkissfft-dev`): the magnitude spectrum the sound analysis reads its spectral features from.
///
/// One instance keeps its kissfft plan and output buffer, so a frame costs no allocation; it is a
/// class because it owns that C state, and not `Sendable`: use one per thread.
public final class RealFFT: MagnitudeSpectrum {
    /// Samples per frame (even).
    public let size: Int
    private let plan: OpaquePointer

    /// A transform of `size` samples, or nil when `size` is odd, below 2 or above 2²⁴.
    public init?(size: Int) {
        guard size >= 2, size % 2 == 0, size <= 1 << 24, let plan = hb_fft_create(UInt32(size)) else { return nil }
        self.size = size
        self.plan = plan
    }

    deinit { hb_fft_destroy(plan) }

    /// Bins in the magnitude spectrum: 0 (DC) … size/2 (Nyquist).
    public var binCount: Int { size / 2 + 1 }

    /// Writes |X[k]| for k = 0…size/2 of `frame` (exactly `size` samples) into `magnitudes`
    /// (exactly `binCount` values).
    public func magnitudes(of frame: UnsafeBufferPointer<Float>, into magnitudes: UnsafeMutableBufferPointer<Float>) {
        precondition(frame.count == size && magnitudes.count == binCount, "RealFFT: frame or spectrum of the wrong length")
        guard let input = frame.baseAddress, let output = magnitudes.baseAddress else { return }
        hb_fft_magnitudes(plan, input, output)
    }
}
