#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import HapticRuntime
import Yams

extension BoardFile {
    /// Values an aliased board may hold beyond one per byte of its text.
    static let aliasAllowance = 1_000
    /// The deepest a board file may nest by `YAMLNesting.bound(of:)`: the shipped boards come to
    /// 20 at most, and Yams's recursion keeps 200 levels far inside any thread's stack (in a
    /// release build about 1.7 KB a level: 4,700 levels filled the main thread's 8 MB).
    static let maximumNesting = 200

    /// Reads and decodes a board file; every failure names the file, line, column and key.
    package static func load(path: String) throws(BoardFileError) -> BoardFile {
        let text: String
        do {
            // Held to content files' limits: a size cap, no pipe or device, UTF-8.
            text = try ContentFileReading.text(of: URL(fileURLWithPath: path))
        } catch {
            throw BoardFileError(file: path, position: nil, keyPath: nil, message: "cannot read the board file: \(error.reason)")
        }
        return try parse(text, path: path)
    }

    /// Decodes board YAML held in memory (`path` names it in errors).
    package static func parse(_ text: String, path: String) throws(BoardFileError) -> BoardFile {
        let nesting = YAMLNesting.bound(of: text)
        guard nesting <= Self.maximumNesting else {
            throw BoardFileError(
                file: path, position: nil, keyPath: nil,
                message: "it may nest up to \(nesting) levels deep by its brackets, indicators and indentation, more than the \(Self.maximumNesting) a board file may; a board needs a handful"
            )
        }
        let root: Node
        do {
            guard let node = try Yams.compose(yaml: text) else {
                throw BoardFileError(file: path, position: nil, keyPath: nil, message: "the board file is empty")
            }
            root = node
        } catch let error as BoardFileError {
            throw error
        } catch let error as YamlError {
            throw BoardFileError(file: path, yamlError: error)
        } catch {
            throw BoardFileError(file: path, position: nil, keyPath: nil, message: "not valid YAML: \(error)")
        }
        // An alias stands for its anchor's whole subtree: nine aliases of nine aliases, nine deep,
        // make a few hundred bytes into 387 million values for the checks to walk (a "billion
        // laughs"). Without aliases a value takes at least a byte of text, so a board may hold as
        // many values, expanded, as its text has bytes: sharing ratings between actuators fits.
        let sourceMap = YAMLSourceMap(node: root)
        let valueLimit = text.utf8.count + Self.aliasAllowance
        guard !sourceMap.expands(beyond: valueLimit) else {
            throw BoardFileError(
                file: path, position: nil, keyPath: nil,
                message: "its aliases (*name) expand it to more than \(valueLimit) values, more than a board of its size holds; write the values out or share fewer"
            )
        }
        return try decoding(path: path, sourceMap: sourceMap, readsBaseSixty: true) { userInfo in
            try YAMLDecoder().decode(BoardDescription.self, from: text, userInfo: userInfo)
        }
    }
}

extension BoardFileError {
    /// Locates a libyaml syntax error.
    init(file: String, yamlError: YamlError) {
        switch yamlError {
        case .scanner(let context, let problem, let mark, _), .parser(let context, let problem, let mark, _):
            let detail = context.map { "\(problem) \($0.text)" } ?? problem
            self.init(file: file, position: BoardTextPosition(mark), keyPath: nil, message: "not valid YAML: \(detail)")
        default:
            self.init(file: file, position: nil, keyPath: nil, message: "not valid YAML: \(yamlError)")
        }
    }
}
