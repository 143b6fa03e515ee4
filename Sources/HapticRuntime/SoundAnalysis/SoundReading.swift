import ActuatorHAL

/// What reading a sound file as content takes from the platform — a decoder and an FFT — and
/// the analysis settings. The runtime links neither: on Linux give it the back end's,
/// `SoundReading(decoder: SoundFileDecoder(), spectrum: { RealFFT(size: $0) })`.
public struct SoundReading: Sendable {
    /// Reads the file, mixed down to one channel.
    public var decoder: any SoundDecoder
    /// Makes the transform for a frame size (nil when the size cannot be transformed).
    public var spectrum: @Sendable (Int) -> (any MagnitudeSpectrum)?
    /// How sound becomes haptics.
    public var settings: SoundAnalysisSettings

    /// Sound reading with `decoder` and `spectrum`, analysed with `settings`.
    public init(decoder: any SoundDecoder, spectrum: @escaping @Sendable (Int) -> (any MagnitudeSpectrum)?, settings: SoundAnalysisSettings = SoundAnalysisSettings()) {
        self.decoder = decoder
        self.spectrum = spectrum
        self.settings = settings
    }
}
