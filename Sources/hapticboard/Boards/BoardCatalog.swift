import Foundation

/// Where board files are looked for: `Boards/` under the current directory, then
/// `/etc/hapticboard/`. `--board` takes a path, or the name of a file in one of them.
enum BoardCatalog {
    /// The folders searched for `<name>.yml`, in order.
    static let folders = ["Boards", "/etc/hapticboard"]

    /// One board `boards list` shows.
    struct Entry: Encodable, Equatable {
        /// What `--board` takes for it.
        var name: String
        /// Where it is (`built in` for sim).
        var source: String
        var description: String?
        /// Why the file does not load or check, if it does not.
        var problem: String?
    }

    /// The path `board` names: itself if a file exists there, else `<folder>/<board>.yml` in the first
    /// folder that has it.
    static func path(of board: String) throws(BoardChipsError) -> String {
        let candidates = [board] + folders.map { "\($0)/\(board).yml" }
        guard let found = candidates.first(where: { FileManager.default.fileExists(atPath: $0) }) else {
            throw .boardNotFound(board, searched: candidates)
        }
        return found
    }

    /// The built-in sim board, then every `*.yml` in the folders, each with its description or
    /// the first problem that keeps it from being used. Files shadowed by an earlier folder are skipped.
    static func entries() -> [Entry] {
        var entries = [Entry(name: BuiltInBoard.simName, source: "built in", description: (try? BuiltInBoard.sim())?.description.description)]
        var seen: Set<String> = [BuiltInBoard.simName]
        for folder in folders {
            let names = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
            for file in names.sorted() where file.hasSuffix(".yml") || file.hasSuffix(".yaml") {
                let name = (file as NSString).deletingPathExtension
                guard seen.insert(name).inserted else { continue }
                let path = "\(folder)/\(file)"
                do {
                    let board = try BoardFile.load(path: path)
                    let problem = BoardRules(file: board).problems().first.map(\.description)
                    entries.append(Entry(name: name, source: path, description: board.description.description, problem: problem))
                } catch {
                    entries.append(Entry(name: name, source: path, description: nil, problem: error.description))
                }
            }
        }
        return entries
    }
}
