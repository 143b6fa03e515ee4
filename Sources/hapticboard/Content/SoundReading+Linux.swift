import ActuatorHALLinux
import HapticRuntime

extension SoundReading {
    /// Sound files read with the Linux back end: libsndfile decodes, kissfft transforms.
    static func linux(settings: SoundAnalysisSettings = SoundAnalysisSettings()) -> SoundReading {
        SoundReading(decoder: SoundFileDecoder(), spectrum: { RealFFT(size: $0) }, settings: settings)
    }
}
