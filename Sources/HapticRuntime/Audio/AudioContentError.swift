import ActuatorHAL

/// Why a pattern's sound could not be prepared.
public enum AudioContentError: Error, Sendable, Hashable, CustomStringConvertible {
    /// An AudioCustom event (or a notes `sound`) without a waveform path.
    case missingWaveform(eventIndex: Int)
    /// The waveform path is not usable (absolute, leaves the content's folder, missing, …).
    case waveformPath(path: String, problem: AHAPWaveformPathProblem)
    /// The file was found but could not be decoded.
    case decoding(SoundFileError)

    public var description: String {
        switch self {
        case .missingWaveform(let index): "event \(index): AudioCustom event has no EventWaveformPath"
        case .waveformPath(let path, let problem): "waveform \"\(path)\": \(problem)"
        case .decoding(let error): error.description
        }
    }
}
