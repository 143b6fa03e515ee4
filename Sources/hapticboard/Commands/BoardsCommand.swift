import ArgumentParser

/// `hapticboard boards`: work with board files.
struct BoardsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "boards",
        abstract: "List the known boards and check board description files.",
        subcommands: [List.self, Check.self]
    )

    /// `hapticboard boards list`: the built-in board and every board file found.
    struct List: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "List the boards --board accepts by name: the built-in sim, Boards/*.yml and /etc/hapticboard/*.yml.",
            discussion: "A file that does not load or check is listed with its first problem."
        )

        @OptionGroup var options: GlobalOptions

        func run() throws {
            options.bootstrapLogging()
            let entries = BoardCatalog.entries()
            if options.json {
                try printJSON(BoardList(boards: entries))
                return
            }
            let width = entries.map(\.name.count).max() ?? 0
            for entry in entries {
                let name = entry.name.padding(toLength: width, withPad: " ", startingAt: 0)
                let detail = entry.problem.map { "INVALID: \($0)" } ?? entry.description ?? ""
                print("\(name)  \(detail)  [\(entry.source)]")
            }
        }
    }

    /// `boards list --json`.
    struct BoardList: Encodable {
        var boards: [BoardCatalog.Entry]
    }

    /// `hapticboard boards check FILE...`: every problem in every file, each with its location.
    struct Check: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Check board files and list every problem with file:line:column and key.",
            discussion: """
                Checks the YAML syntax, the keys (devicetree spellings such as vib-rated-mv, \
                enable-gpios, library-sel), references between buses, muxes and actuators, value \
                ranges the chips accept, and address conflicts. Exits 1 if any file has a problem.
                """
        )

        @Argument(help: "Board files (YAML), e.g. Boards/raspberry-pi-4-drv2605l.yml.")
        var files: [String]

        @Flag(name: .long, help: "Print JSON (every file with its problems) instead of text.")
        var json = false

        /// `boards check --json`: one entry per file.
        struct Document: Encodable {
            struct Problem: Encodable {
                var line: Int?
                var column: Int?
                var key: String?
                var message: String
                var description: String
            }

            struct File: Encodable {
                var file: String
                var problems: [Problem]
            }

            var files: [File]
        }

        func run() throws {
            var document = Document(files: [])
            for path in files {
                let problems: [BoardFileError]
                do {
                    let file = try BoardFile.load(path: path)
                    problems = BoardRules(file: file).problems()
                } catch {
                    problems = [error]
                }
                document.files.append(Document.File(file: path, problems: problems.map {
                    Document.Problem(line: $0.line, column: $0.column, key: $0.keyPath?.description, message: $0.message, description: $0.description)
                }))
                guard !json else { continue }
                if problems.isEmpty {
                    print("\(path): ok")
                } else {
                    for problem in problems { printError(problem.description) }
                }
            }
            if json { try printJSON(document) }
            if document.files.contains(where: { !$0.problems.isEmpty }) { throw ExitCode.failure }
        }
    }
}
