/// A forward FFT of real frames of one size, giving magnitudes: what the sound analysis reads its
/// spectral features from. The Linux back end's `RealFFT` (kissfft) is one; the runtime is given a
/// way to make them so it links no FFT library itself.
public protocol MagnitudeSpectrum: AnyObject {
    /// Samples per frame.
    var size: Int { get }
    /// Bins in the magnitude spectrum: 0 (DC) … size/2 (Nyquist).
    var binCount: Int { get }
    /// Writes |X[k]| for k = 0…size/2 of `frame` (exactly `size` samples) into `magnitudes`
    /// (exactly `binCount` values).
    func magnitudes(of frame: UnsafeBufferPointer<Float>, into magnitudes: UnsafeMutableBufferPointer<Float>)
}
