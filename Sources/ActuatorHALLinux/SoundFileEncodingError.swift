import ActuatorHAL

/// Why `SoundFileEncoder` could not write a sound file.
public enum SoundFileEncodingError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The channel count or rate is not positive, or the samples are not whole frames.
    case invalidLayout(path: String, reason: String)
    /// libsndfile refused the format or failed to write; `code` and `reason` are its own.
    case libsndfile(path: String, container: SoundFileEncoder.Container, code: Int, reason: String)

    public var description: String {
        switch self {
        case .invalidLayout(let path, let reason): "\(path): cannot write sound file: \(reason)"
        case .libsndfile(let path, let container, let code, let reason): "\(path): cannot write \(container): \(reason) (libsndfile error \(code))"
        }
    }
}
