import ActuatorHAL
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Reads a content file in whichever format it is written, chosen by its extension:
///
/// | extension | format |
/// |---|---|
/// | `.ahap` | AHAP |
/// | `.haptic` | Meta/Lofelt `.haptic` v1 clip |
/// | `.json` | AHAP when the top level is an object (`.haptic` when it holds `signals`), notes when an array |
/// | `.hnl`, `.haptic-notation` | Haptic Notation Language |
/// | `.notes`, `.txt` | notes, one per line (or a JSON array) |
/// | `.wav`, `.flac`, `.ogg`, `.aiff`, … | a sound: haptics derived by `SoundAnalyzer` (`SoundHaptics`) |
///
/// Any other extension, and data with no name (stdin), is recognised by content: a sound file's
/// signature, or JSON that is a `.haptic` clip, AHAP or a notes array.
public enum ContentLoader {
    /// The extensions ``load(contentsOf:)`` understands, for help texts and errors.
    public static let knownExtensions = ["ahap", "haptic", "json", "hnl", "haptic-notation", "notes", "txt"] + SoundHaptics.extensions

    /// Loads the file at `url`; every failure names the file and, for content errors, the line and
    /// column. Sounds are read with `sounds` (the platform's decoder and FFT); without it a sound
    /// file is refused, saying what is missing.
    public static func load(contentsOf url: URL, sounds: SoundReading? = nil) throws(ContentLoadingError) -> LoadedContent {
        let format = try format(of: url)
        switch format {
        case .ahap:
            do { return try AHAP.read(contentsOf: url) } catch { throw .ahap(error) }
        case .haptic:
            do { return try HapticClip.read(contentsOf: url) } catch { throw .haptic(error) }
        case .sound:
            guard let sounds else { throw .noSoundReading(file: url.path) }
            do { return try SoundHaptics.load(contentsOf: url, reading: sounds) } catch { throw .sound(error) }
        case .notation, .notes:
            return try parse(try readText(of: url), format: format, file: url.path)
        }
    }

    /// Loads content handed over as bytes (stdin), recognised by content; `file` names it in
    /// errors. A sound is written to a temporary file for the decoder and analysed.
    public static func load(data: Data, file: String, sounds: SoundReading? = nil) throws(ContentLoadingError) -> LoadedContent {
        guard data.count <= ContentFileReading.maximumSize else {
            throw .unreadable(file: file, reason: ContentFileReading.Problem.tooLarge(size: data.count).reason)
        }
        if SoundHaptics.looksLikeSound(data) {
            guard let sounds else { throw .noSoundReading(file: file) }
            let temporary = FileManager.default.temporaryDirectory.appendingPathComponent("hapticboard-\(ProcessInfo.processInfo.processIdentifier)-\(UUID().uuidString)")
            defer { try? FileManager.default.removeItem(at: temporary) }
            do { try data.write(to: temporary) } catch { throw .unreadable(file: file, reason: FileReadFailure.reason(for: error)) }
            do {
                let clip = SoundHaptics.clip(for: try SoundHaptics.decode(contentsOf: temporary, with: sounds.decoder), reading: sounds, source: file)
                // No AudioCustom event: the sound has no file beside the content to play from.
                return LoadedContent(format: .sound, pattern: clip.pattern, clip: clip)
            } catch {
                throw .unreadable(file: file, reason: "\(error)".replacing(temporary.path, with: file))
            }
        }
        let text: String
        do { text = try ContentFileReading.text(of: data) } catch { throw .unreadable(file: file, reason: error.reason) }
        guard let format = jsonFormat(of: text) else { throw .unrecognisedContent(file: file) }
        return try parse(text, format: format, file: file)
    }

    /// Parses text already in memory; `file` names it in errors.
    public static func parse(_ text: String, format: ContentFormat, file: String) throws(ContentLoadingError) -> LoadedContent {
        switch format {
        case .ahap:
            do { return try AHAP.read(text: text, file: file) } catch { throw .ahap(error) }
        case .haptic:
            do { return try HapticClip.read(text: text, file: file) } catch { throw .haptic(error) }
        case .notation:
            do { return try HapticNotation.parse(text, file: file) } catch { throw .notation(error) }
        case .notes:
            do {
                return LoadedContent(format: .notes, pattern: HapticPattern(notes: try NotesFile.parse(text, file: file)))
            } catch {
                throw .notes(error)
            }
        case .sound:
            throw .unrecognisedContent(file: file)
        }
    }

    /// The format a file holds, from its extension; for `.json` and unknown extensions, from its content.
    public static func format(of url: URL) throws(ContentLoadingError) -> ContentFormat {
        let known = url.pathExtension.lowercased()
        switch known {
        case "ahap": return .ahap
        case "haptic": return .haptic
        case "hnl", "haptic-notation": return .notation
        case "notes", "txt": return .notes
        case _ where SoundHaptics.extensions.contains(known): return .sound
        default:
            let data: Data
            do { data = try ContentFileReading.data(of: url) } catch { throw .unreadable(file: url.path, reason: error.reason) }
            if SoundHaptics.looksLikeSound(data) { return .sound }
            let format = (try? ContentFileReading.text(of: data)).flatMap(jsonFormat(of:))
            // A broken .json file is read as AHAP, whose reader then says where it breaks.
            if known == "json" { return format ?? .ahap }
            guard let format else { throw .unknownExtension(file: url.path, known: knownExtensions) }
            return format
        }
    }

    /// The format of JSON text: notes for an array, `.haptic` for an object holding `signals` or
    /// a `version` object, AHAP for any other object; nil for text that does not start as JSON.
    static func jsonFormat(of text: String) -> ContentFormat? {
        switch text.first(where: { !$0.isWhitespace && $0 != "\u{FEFF}" }) {
        case "[": .notes
        case "{": HapticClip.looksLikeClip(text) ? .haptic : .ahap
        default: nil
        }
    }

    private static func readText(of url: URL) throws(ContentLoadingError) -> String {
        do {
            return try ContentFileReading.text(of: url)
        } catch {
            throw .unreadable(file: url.path, reason: error.reason)
        }
    }
}

/// Why a content file could not be loaded. The description is the underlying reader's located message.
public enum ContentLoadingError: Error, Sendable, CustomStringConvertible {
    case unknownExtension(file: String, known: [String])
    case unreadable(file: String, reason: String)
    /// Data with no extension (stdin) that is neither a sound nor JSON content.
    case unrecognisedContent(file: String)
    case ahap(AHAPError)
    case haptic(HapticClipError)
    case notation(HapticNotationError)
    case notes(NotesFileError)
    case sound(SoundFileError)
    /// A sound file, loaded without the platform's decoder and FFT (`SoundReading`).
    case noSoundReading(file: String)

    public var description: String {
        switch self {
        case .unknownExtension(let file, let known):
            return "\(file): unknown content type; expected one of the extensions \(known.map { "." + $0 }.joined(separator: ", ")), or a sound or JSON content file"
        case .unreadable(let file, let reason):
            return "\(file): cannot read the file: \(reason)"
        case .unrecognisedContent(let file):
            return "\(file): not a sound file, AHAP, .haptic or notes JSON; name notation and notes text with an extension (.hnl, .notes)"
        case .ahap(let error): return error.description
        case .haptic(let error): return error.description
        case .notation(let error): return error.description
        case .notes(let error): return error.description
        case .sound(let error): return error.description
        case .noSoundReading(let file):
            return "\(file): a sound file: reading it takes a SoundReading (a decoder and an FFT; on Linux the ActuatorHALLinux back end's SoundFileDecoder and RealFFT)"
        }
    }
}
