import ActuatorHAL
import ActuatorHALLinux
import HapticRuntime

extension SoundReading {
    /// The Linux back end's decoder and FFT, as the command uses them.
    static func linux(settings: SoundAnalysisSettings = SoundAnalysisSettings()) -> SoundReading {
        SoundReading(decoder: SoundFileDecoder(), spectrum: linuxSpectrum, settings: settings)
    }
}

/// kissfft through the Linux back end.
let linuxSpectrum: @Sendable (Int) -> (any MagnitudeSpectrum)? = { RealFFT(size: $0) }
