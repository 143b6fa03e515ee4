#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Apple Haptic Audio Pattern files: reading them into a `HapticPattern` the way Core Haptics
/// does, and writing patterns back out.
///
/// Reading follows Apple's rules — missing keys take their defaults, out-of-range values are
/// clamped to the nearest limit, unknown keys are ignored — and accepts what real files contain:
/// trailing commas, an integer, string or missing `Version`, non-string `Metadata` values, a bare
/// `Event` without `Pattern`, unsorted times (sorted, equal times keep file order), curves of any
/// length, and HapticContinuous events over 30 s (split into consecutive events of at most 30 s,
/// see `HapticEvent.splitAtContinuousLimit()`). Each of these adds a `ContentWarning` naming the
/// `file:line:column` and key path. Everything else that is wrong is an `AHAPError` naming the same.
public enum AHAP {
    /// Reads the AHAP file at `url`. AudioCustom waveform paths are resolved against the file's
    /// folder and must name a file inside it; one that does not is a warning and a
    /// `LoadedContent.waveformProblems` entry, not an error, so the haptics still play.
    public static func read(contentsOf url: URL) throws(AHAPError) -> LoadedContent {
        let file = url.relativePath
        let text: String
        do {
            text = try ContentFileReading.text(of: url)
        } catch {
            throw .unreadableFile(file: file, reason: error.reason)
        }
        return try read(text: text, file: file, relativeTo: url.absoluteURL.deletingLastPathComponent())
    }

    /// Reads AHAP `text`; `file` names it in locations. With `folder`, AudioCustom waveform paths
    /// are resolved in that folder as `read(contentsOf:)` does; without it they get only the checks
    /// that need no file system (not empty, not absolute, no `..` leaving the folder).
    public static func read(text: String, file: String, relativeTo folder: URL? = nil) throws(AHAPError) -> LoadedContent {
        let root: LocatedJSON
        do {
            root = try LocatedJSONReader.read(text)
        } catch {
            throw .syntax(
                AHAPSourceLocation(file: file, line: error.position.line, column: error.position.column),
                message: error.message)
        }
        var reader = AHAPDocumentReader(file: file, folder: folder)
        let pattern = try reader.read(root)
        return LoadedContent(format: .ahap, pattern: pattern, warnings: reader.warnings, waveformProblems: reader.waveformProblems)
    }

    /// `pattern` as AHAP text with a stable key order; `read` gives the same pattern back.
    /// Non-finite numbers (which AHAP cannot hold) are written as `null`, which `read` refuses.
    public static func write(_ pattern: HapticPattern) -> String {
        AHAPWriter.text(of: pattern)
    }

    /// The waveform file an AudioCustom `EventWaveformPath` names, for the AHAP file at
    /// `ahapFile`: resolved in that file's folder, symbolic links followed, and refused if it
    /// lies outside the folder.
    public static func resolveWaveform(_ path: String, relativeTo ahapFile: URL) throws(AHAPWaveformPathProblem) -> URL {
        switch AHAPWaveformResolver.resolve(path, inFolder: ahapFile.absoluteURL.deletingLastPathComponent()) {
        case .success(let url): return url
        case .failure(let problem): throw problem
        }
    }
}
