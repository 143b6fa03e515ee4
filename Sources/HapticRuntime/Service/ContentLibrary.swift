import FoundationEssentials

/// A folder of content the service plays by name, read once (at start and on reload): every
/// file ContentLoader reads — AHAP, `.haptic`, notation, notes, and sounds when the platform can
/// analyse them — by its name with and without the extension (`success`, `success.ahap`). The
/// folder is also the only place submitted content's AudioCustom files resolve.
public struct ContentLibrary: Sendable {
    public let folder: URL
    /// Content by name.
    public let items: [String: LoadedContent]

    /// Reads every content file at the top of `folder` (hidden files and READMEs skipped).
    /// - Throws: `ContentLibraryError` with every file that did not load, each located.
    public static func load(folder: URL, sounds: SoundReading? = nil) throws(ContentLibraryError) -> ContentLibrary {
        let names: [String]
        do {
            names = try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
        } catch {
            throw ContentLibraryError(folder: folder.path, problems: ["cannot list the content library: \(FileReadFailure.reason(for: error))"])
        }
        var items: [String: LoadedContent] = [:]
        var problems: [String] = []
        for name in names where !name.hasPrefix(".") && !name.lowercased().hasPrefix("readme") {
            let url = folder.appendingPathComponent(name)
            let fileExtension = url.pathExtension.lowercased()
            guard ContentLoader.knownExtensions.contains(fileExtension), fileExtension != "txt" else { continue }
            // Sounds are content only where the platform can analyse them; they stay AudioCustom files.
            if SoundHaptics.extensions.contains(fileExtension), sounds == nil { continue }
            do {
                let content = try ContentLoader.load(contentsOf: url, sounds: sounds)
                items[name] = content
                items[url.deletingPathExtension().lastPathComponent] = items[url.deletingPathExtension().lastPathComponent] ?? content
            } catch {
                problems.append(error.description)
            }
        }
        guard problems.isEmpty else { throw ContentLibraryError(folder: folder.path, problems: problems) }
        return ContentLibrary(folder: folder, items: items)
    }

    /// An empty library in `folder` (content may still name its sound files).
    public init(folder: URL, items: [String: LoadedContent] = [:]) {
        self.folder = folder
        self.items = items
    }

    /// The names the library answers to, without extensions.
    public var names: [String] { Set(items.keys.filter { !$0.contains(".") }).sorted() }
}

/// Files of a content library that did not load.
public struct ContentLibraryError: Error, Sendable, Hashable, CustomStringConvertible {
    public var folder: String
    /// Each file's located problem.
    public var problems: [String]

    public var description: String {
        "content library \(folder): \(problems.count) file(s) did not load:\n" + problems.map { "  \($0)" }.joined(separator: "\n")
    }
}
