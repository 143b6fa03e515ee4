/// Why a sound file could not be decoded or converted.
public enum SoundFileError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The file could not be opened or is not a format the decoder reads; `reason` is the
    /// decoder's own words (libsndfile: "Format not recognised.", "System error : No such file …").
    case unreadable(path: String, reason: String)
    /// Decoding stopped part way through.
    case decoding(path: String, reason: String)
    /// The file would not fit in memory.
    case tooLarge(path: String)
    /// The sound lasts longer than `limit` seconds, the longest a caller accepts.
    case tooLong(path: String, limit: Double)
    /// Sample-rate conversion failed (libsamplerate's reason) or was asked for a rate ≤ 0.
    case resampling(from: Int, to: Int, reason: String)

    public var description: String {
        switch self {
        case .unreadable(let path, let reason): "\(path): cannot read sound file: \(reason)"
        case .decoding(let path, let reason): "\(path): error while decoding: \(reason)"
        case .tooLarge(let path): "\(path): sound file too large to decode in memory"
        case .tooLong(let path, let limit): "\(path): the sound lasts longer than the \(limit == limit.rounded() && abs(limit) < 1e15 ? String(Int(limit)) : String(limit)) s this reads"
        case .resampling(let from, let to, let reason): "cannot resample \(from) Hz to \(to) Hz: \(reason)"
        }
    }
}
