import ActuatorHAL
import ActuatorHALLinux
import ArgumentParser
import BoardFiles
import Foundation
import HapticRuntime

/// `hapticboard boards`: work with board files.
struct BoardsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "boards",
        abstract: "List the known boards, check board description files, and show what a board will do.",
        subcommands: [List.self, Check.self, Show.self]
    )

    /// `hapticboard boards show [BOARD]`: the registers a board's ratings give each chip.
    struct Show: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Show every actuator of a board: the register values its ratings give, with units and formula inputs, stored calibration and power budgets.",
            discussion: """
                Nothing is touched: the board is opened on simulated stand-ins for its devices. Each \
                DRV260x register the board file decides (RATED_VOLTAGE, OD_CLAMP, DRIVE_TIME, \
                OL_LRA_PERIOD, FEEDBACK_CONTROL, CONTROL2/3, LIBRARY_SEL) is shown with the value it \
                stands for and the datasheet formula with the file's inputs.

                Examples:
                  hapticboard boards show
                  hapticboard boards show Boards/cm4-dual-drv2605l-tca9548a.yml --json
                """
        )

        @OptionGroup var options: GlobalOptions
        @OptionGroup var state: StateOptions

        @Argument(help: "The board: sim, a board file, or a name in Boards/ or /etc/hapticboard/ (default: --board, $HAPTICBOARD_BOARD, /etc/hapticboard/board.yml, sim).")
        var board: String?

        func run() throws {
            options.bootstrapLogging()
            let opened = try CommandBoard.open(board ?? options.resolvedBoard, simulatingEveryDevice: true)
            defer { opened.close() }
            let report = try BoardShowReport(board: opened.opened, calibrations: try state.store.load())
            if options.json { try printJSON(report) } else { print(report.text) }
        }
    }

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
                ranges the chips accept, and address conflicts; an evdev-ff actuator's input device, \
                when it is present on this machine, is opened and must have force feedback (EV_FF). \
                Exits 1 if any file has a problem.
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

            /// A DRV260x actuator of a file that checks: the ROM library it will play.
            struct Actuator: Encodable {
                var name: String
                var library: String?
                /// `library-sel` when the file names it, `default` when the datasheet's choice applies.
                var librarySource: String
                var description: String
            }

            struct File: Encodable {
                var file: String
                var problems: [Problem]
                var actuators: [Actuator]
            }

            var files: [File]
        }

        func run() throws {
            var document = Document(files: [])
            for path in files {
                let url = URL(fileURLWithPath: path)
                var problems = Board.problems(inFileAt: url)
                let board = problems.isEmpty ? try Board(contentsOf: url) : nil
                // Input devices that are here are opened, so one without force feedback is caught now.
                problems += board?.deviceProblems(on: LinuxBoardHardware()) ?? []
                let actuators = problems.isEmpty ? board.map(Self.libraries(of:)) ?? [] : []
                document.files.append(Document.File(file: path, problems: problems.map {
                    Document.Problem(line: $0.line, column: $0.column, key: $0.keyPath?.description, message: $0.message, description: $0.description)
                }, actuators: actuators))
                guard !json else { continue }
                if problems.isEmpty {
                    print("\(path): ok")
                    for actuator in actuators { print("  \(actuator.description)") }
                } else {
                    for problem in problems { printError(problem.description) }
                }
            }
            if json { try printJSON(document) }
            if document.files.contains(where: { !$0.problems.isEmpty }) { throw ExitCode.failure }
        }

        /// The ROM library each DRV260x actuator of `board` will select, and why.
        static func libraries(of board: Board) -> [Document.Actuator] {
            var actuators: [Document.Actuator] = []
            for actuator in board.actuators {
                guard case .drv2605(let placement, let configuration) = actuator.drive else { continue }
                let variant = placement.variant
                let library = configuration.effectiveLibrary(on: variant)
                let ratings = configuration.ratings
                let source = configuration.library == nil ? "default" : "library-sel"
                let why = configuration.library == nil
                    ? "the datasheet's choice for a \(ratings.ratedVoltage) V \(ratings.loop)-loop \(ratings.kind == .lra ? "LRA" : "ERM")"
                    : "library-sel"
                let text = library.map { "ROM library \($0) (\(why))" } ?? "no ROM library (\(variant) has RAM, not ROM)"
                actuators.append(Document.Actuator(name: actuator.name, library: library?.description, librarySource: source,
                                                   description: "\(actuator.name): \(variant), \(text)"))
            }
            return actuators
        }
    }
}
