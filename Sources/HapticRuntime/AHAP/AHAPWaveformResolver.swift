#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Turns an AudioCustom `EventWaveformPath` into a file inside the AHAP file's folder.
///
/// Paths are relative to the folder holding the AHAP file (Core Haptics resolves them against
/// the pattern's bundle the same way). A path is refused when it is absolute, when its `..`
/// components climb out of the folder, or when it resolves — symbolic links followed — to a file
/// outside the folder, so a pattern received from elsewhere cannot make a player read any file.
enum AHAPWaveformResolver {
    /// The checks that need no file system: empty, absolute, `..` leaving the folder.
    static func lexicalProblem(in path: String) -> AHAPWaveformPathProblem? {
        if path.isEmpty { return .empty }
        if path.hasPrefix("/") { return .absolute }
        var depth = 0
        for component in path.split(separator: "/", omittingEmptySubsequences: true) {
            switch component {
            case ".": continue
            case "..":
                depth -= 1
                if depth < 0 { return .leavesFolder }
            default:
                depth += 1
            }
        }
        return nil
    }

    /// The real file `path` names inside `folder`, or why it may not be used.
    static func resolve(_ path: String, inFolder folder: URL) -> Result<URL, AHAPWaveformPathProblem> {
        if let problem = lexicalProblem(in: path) { return .failure(problem) }
        guard let realFolder = realPath(folder.path) else { return .failure(.notFound) }
        let candidate = folder.path.hasSuffix("/") ? folder.path + path : folder.path + "/" + path
        guard let realFile = realPath(candidate) else { return .failure(.notFound) }
        let folderPrefix = realFolder.hasSuffix("/") ? realFolder : realFolder + "/"
        guard realFile.hasPrefix(folderPrefix) else { return .failure(.linkLeavesFolder(resolvedPath: realFile)) }
        guard isRegularFile(realFile) else { return .failure(.notARegularFile) }
        return .success(URL(fileURLWithPath: realFile))
    }

    /// The canonical absolute path with every symbolic link resolved, or nil if it does not exist.
    private static func realPath(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    private static func isRegularFile(_ path: String) -> Bool {
        var info = stat()
        guard stat(path, &info) == 0 else { return false }
        return (info.st_mode & S_IFMT) == S_IFREG
    }
}
