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
/// | `.json` | AHAP when the top level is an object, a notes list when it is an array |
/// | `.hnl`, `.haptic-notation` | Haptic Notation Language |
/// | `.notes`, `.txt` | notes, one per line (or a JSON array) |
public enum ContentLoader {
    /// The extensions ``load(contentsOf:)`` understands, for help texts and errors.
    public static let knownExtensions = ["ahap", "json", "hnl", "haptic-notation", "notes", "txt"]

    /// Loads the file at `url`; every failure names the file and, for content errors, the line and column.
    public static func load(contentsOf url: URL) throws(ContentLoadingError) -> LoadedContent {
        let format = try format(of: url)
        if format == .ahap {
            do {
                return try AHAP.read(contentsOf: url)
            } catch {
                throw .ahap(error)
            }
        }
        let text = try readText(of: url)
        return try parse(text, format: format, file: url.path)
    }

    /// Parses text already in memory; `file` names it in errors.
    public static func parse(_ text: String, format: ContentFormat, file: String) throws(ContentLoadingError) -> LoadedContent {
        switch format {
        case .ahap:
            do {
                return try AHAP.read(text: text, file: file)
            } catch {
                throw .ahap(error)
            }
        case .notation:
            do {
                return try HapticNotation.parse(text, file: file)
            } catch {
                throw .notation(error)
            }
        case .notes:
            do {
                return LoadedContent(format: .notes, pattern: HapticPattern(notes: try NotesFile.parse(text, file: file)))
            } catch {
                throw .notes(error)
            }
        }
    }

    /// The format a file holds, from its extension (and, for `.json`, its first significant character).
    public static func format(of url: URL) throws(ContentLoadingError) -> ContentFormat {
        switch url.pathExtension.lowercased() {
        case "ahap": return .ahap
        case "hnl", "haptic-notation": return .notation
        case "notes", "txt": return .notes
        case "json":
            let text = try readText(of: url)
            return text.first(where: { !$0.isWhitespace && $0 != "\u{FEFF}" }) == "[" ? .notes : .ahap
        default:
            throw .unknownExtension(file: url.path, known: knownExtensions)
        }
    }

    private static func readText(of url: URL) throws(ContentLoadingError) -> String {
        do {
            return try String(contentsOf: url, encoding: .utf8)
        } catch {
            throw .unreadable(file: url.path, reason: FileReadFailure.reason(for: error))
        }
    }
}

/// Why a content file could not be loaded. The description is the underlying reader's located message.
public enum ContentLoadingError: Error, Sendable, CustomStringConvertible {
    case unknownExtension(file: String, known: [String])
    case unreadable(file: String, reason: String)
    case ahap(AHAPError)
    case notation(HapticNotationError)
    case notes(NotesFileError)

    public var description: String {
        switch self {
        case .unknownExtension(let file, let known):
            return "\(file): unknown content type; expected one of the extensions \(known.map { "." + $0 }.joined(separator: ", "))"
        case .unreadable(let file, let reason):
            return "\(file): cannot read the file: \(reason)"
        case .ahap(let error): return error.description
        case .notation(let error): return error.description
        case .notes(let error): return error.description
        }
    }
}
