#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import HapticRuntime

/// Board files: YAML read with Yams. A module of its own because Yams imports full Foundation,
/// and so ICU, which a firmware that carries its board as JSON (`Board(json:source:)`) or runs the
/// built-in `Board.sim` need not link (docs/performance.md, "Footprint").
extension Board {
    /// Where `named(_:)` looks for `<name>.yml`, in order.
    public static let folders = ["Boards", "/etc/hapticboard"]

    /// Reads and checks the board file at `url`.
    /// - Throws: `BoardError.invalid` with every problem of the file.
    public init(contentsOf url: URL) throws(BoardError) {
        try self.init(reading: { () throws(BoardFileError) in try BoardFile.load(path: url.relativePath) })
    }

    /// Reads and checks board YAML held in memory; `source` names it in problems.
    /// - Throws: `BoardError.invalid` with every problem of the text.
    public init(yaml: String, source: String) throws(BoardError) {
        try self.init(reading: { () throws(BoardFileError) in try BoardFile.parse(yaml, path: source) })
    }

    /// The board `name` names: `sim`, a path to a board file, or `<name>.yml` in one of `folders`.
    /// - Throws: `BoardError.notFound` listing where it looked, `BoardError.invalid` for a file
    ///   that does not check.
    public static func named(_ name: String, searching folders: [String] = Board.folders) throws(BoardError) -> Board {
        if name == simName { return sim }
        let candidates = [name] + folders.map { "\($0)/\(name).yml" }
        guard let found = candidates.first(where: { FileManager.default.fileExists(atPath: $0) }) else {
            throw .notFound(name, searched: candidates)
        }
        return try Board(contentsOf: URL(fileURLWithPath: found))
    }

    /// Every problem of the board file at `url` in file order, each located by file, line,
    /// column and key; empty for a file that checks.
    public static func problems(inFileAt url: URL) -> [BoardFileError] {
        do {
            return try BoardFile.load(path: url.relativePath).problems()
        } catch {
            return [error]
        }
    }
}
