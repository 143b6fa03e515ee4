/// Why an AudioCustom `EventWaveformPath` was refused. Waveforms must live in the AHAP file's
/// folder or below it, so a shared pattern cannot make a player read arbitrary files.
public enum AHAPWaveformPathProblem: Error, Sendable, Hashable, CustomStringConvertible {
    /// The path is the empty string.
    case empty
    /// The path starts at the file-system root instead of the AHAP file's folder.
    case absolute
    /// `..` components lead out of the AHAP file's folder.
    case leavesFolder
    /// The path resolves, through a symbolic link, to a file outside the AHAP file's folder.
    case linkLeavesFolder(resolvedPath: String)
    /// No file exists at the path.
    case notFound
    /// The path names a folder or other non-regular file.
    case notARegularFile

    /// The problem as the end of a sentence that starts with the path.
    public var description: String {
        switch self {
        case .empty: "is empty"
        case .absolute: "is absolute; give it relative to the AHAP file's folder"
        case .leavesFolder: "leaves the AHAP file's folder through '..'"
        case .linkLeavesFolder(let resolvedPath):
            "resolves through a symbolic link to \(resolvedPath), outside the AHAP file's folder"
        case .notFound: "names no file in the AHAP file's folder"
        case .notARegularFile: "names something that is not a regular file"
        }
    }
}
