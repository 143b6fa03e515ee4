import FoundationEssentials

extension HapticClip {
    /// Reads the `.haptic` file at `url`: validated, its pattern made by Meta's mapping (see
    /// ``pattern``), warnings for what was accepted but changed.
    public static func read(contentsOf url: URL) throws(HapticClipError) -> LoadedContent {
        let file = url.relativePath
        do {
            return try read(text: try ContentFileReading.text(of: url), file: file)
        } catch let error as HapticClipError {
            throw error
        } catch {
            throw .unreadableFile(file: file, reason: (error as? ContentFileReading.Problem)?.reason ?? "\(error)")
        }
    }

    /// Reads `.haptic` `text`; `file` names it in locations.
    public static func read(text: String, file: String) throws(HapticClipError) -> LoadedContent {
        let root: LocatedJSON
        do {
            root = try LocatedJSONReader.read(text)
        } catch {
            throw .syntax(AHAPSourceLocation(file: file, line: error.position.line, column: error.position.column), message: error.message)
        }
        var reader = HapticClipReader(file: file)
        let clip = try reader.read(root)
        return LoadedContent(format: .haptic, pattern: clip.pattern, warnings: reader.warnings, clip: clip)
    }

    /// Whether `text` looks like a `.haptic` document rather than AHAP: a JSON object whose
    /// `signals` or lowercase `version` object comes first among the keys the two formats use.
    /// For stdin and unknown extensions.
    static func looksLikeClip(_ text: String) -> Bool {
        guard let root = try? LocatedJSONReader.read(text), case .object(let members) = root.kind else { return false }
        return members.contains { $0.key == "signals" } || members.contains { $0.key == "version" && $0.value.typeName == "an object" }
    }
}
