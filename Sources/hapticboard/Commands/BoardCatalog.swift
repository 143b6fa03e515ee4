import BoardFiles
import Foundation
import HapticRuntime

/// The boards `boards list` shows: the built-in sim, then every `*.yml` in `Board.folders`
/// (`Boards/` under the current directory, then `/etc/hapticboard/`), the names `--board` takes.
enum BoardCatalog {
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

    /// The built-in sim board, then every board file in the folders, each with its description or
    /// the first problem that keeps it from being used. Files shadowed by an earlier folder are skipped.
    static func entries() -> [Entry] {
        var entries = [Entry(name: Board.simName, source: "built in", description: Board.sim.summary)]
        var seen: Set<String> = [Board.simName]
        for folder in Board.folders {
            let names = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
            for file in names.sorted() where file.hasSuffix(".yml") || file.hasSuffix(".yaml") {
                let name = (file as NSString).deletingPathExtension
                guard seen.insert(name).inserted else { continue }
                let path = "\(folder)/\(file)"
                do {
                    let board = try Board(contentsOf: URL(fileURLWithPath: path))
                    entries.append(Entry(name: name, source: path, description: board.summary))
                } catch .invalid(let problems) {
                    entries.append(Entry(name: name, source: path, description: nil, problem: problems.first?.description))
                } catch {
                    entries.append(Entry(name: name, source: path, description: nil, problem: error.description))
                }
            }
        }
        return entries
    }
}
