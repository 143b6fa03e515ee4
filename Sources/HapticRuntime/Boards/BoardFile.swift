#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Yams

/// A board file read from disk: its description and the YAML tree, kept so that later checks can
/// point at the line of the key they complain about.
struct BoardFile {
    var path: String
    var description: BoardDescription
    /// What decoding met — unknown keys, missing keys, values of the wrong type — each located,
    /// in the order met. Decoding went on past each with a fallback, so `BoardRules` reports them
    /// together with every other problem of the file.
    var decodingProblems: [BoardFileError]
    /// The key paths those problems are about: a rule about a value there (or a name defined
    /// there) would only repeat them.
    var unreadKeyPaths: [BoardKeyPath]
    private var root: Node

    /// Reads and decodes a board file; every failure names the file, line, column and key.
    static func load(path: String) throws(BoardFileError) -> BoardFile {
        let text: String
        do {
            text = try String(contentsOfFile: path, encoding: .utf8)
        } catch {
            throw BoardFileError(file: path, mark: nil, keyPath: nil, message: "cannot read the board file: \(error.localizedDescription)")
        }
        return try parse(text, path: path)
    }

    /// Decodes board YAML held in memory (`path` names it in errors).
    static func parse(_ text: String, path: String) throws(BoardFileError) -> BoardFile {
        let root: Node
        do {
            guard let node = try Yams.compose(yaml: text) else {
                throw BoardFileError(file: path, mark: nil, keyPath: nil, message: "the board file is empty")
            }
            root = node
        } catch let error as BoardFileError {
            throw error
        } catch let error as YamlError {
            throw BoardFileError(file: path, yamlError: error)
        } catch {
            throw BoardFileError(file: path, mark: nil, keyPath: nil, message: "not valid YAML: \(error)")
        }

        let problems = BoardDecodingProblems()
        do {
            let description = try YAMLDecoder().decode(BoardDescription.self, from: text, userInfo: [BoardDecodingProblems.userInfoKey: problems])
            return BoardFile(
                path: path, description: description,
                decodingProblems: problems.errors.map { BoardFileError(file: path, decodingError: $0, root: root) },
                unreadKeyPaths: problems.unreadPaths,
                root: root
            )
        } catch let error as DecodingError {
            throw BoardFileError(file: path, decodingError: error, root: root)
        } catch {
            throw BoardFileError(file: path, mark: nil, keyPath: nil, message: "\(error)")
        }
    }

    /// An error about the value at `keyPath`, located in this file.
    func problem(at keyPath: BoardKeyPath, _ message: String) -> BoardFileError {
        BoardFileError(file: path, mark: keyPath.mark(in: root), keyPath: keyPath, message: message)
    }
}

extension BoardFileError {
    /// Locates a libyaml syntax error.
    init(file: String, yamlError: YamlError) {
        switch yamlError {
        case .scanner(let context, let problem, let mark, _), .parser(let context, let problem, let mark, _):
            let detail = context.map { "\(problem) \($0.text)" } ?? problem
            self.init(file: file, mark: mark, keyPath: nil, message: "not valid YAML: \(detail)")
        default:
            self.init(file: file, mark: nil, keyPath: nil, message: "not valid YAML: \(yamlError)")
        }
    }

    /// Turns a Codable failure into "file:line:column: key.path: what was expected".
    init(file: String, decodingError: DecodingError, root: Node) {
        let message: String
        var keyPath: BoardKeyPath
        switch decodingError {
        case .keyNotFound(let key, let context):
            keyPath = BoardKeyPath(codingPath: context.codingPath)
            message = "missing required key '\(key.stringValue)'"
        case .typeMismatch(let type, let context), .valueNotFound(let type, let context):
            keyPath = BoardKeyPath(codingPath: context.codingPath)
            message = "expected \(Self.describe(type))"
        case .dataCorrupted(let context):
            keyPath = BoardKeyPath(codingPath: context.codingPath)
            message = context.debugDescription
        @unknown default:
            keyPath = BoardKeyPath()
            message = "\(decodingError)"
        }
        self.init(file: file, mark: keyPath.mark(in: root), keyPath: keyPath, message: message)
    }

    private static func describe(_ type: Any.Type) -> String {
        switch type {
        case is Int.Type: return "an integer"
        case is Double.Type: return "a number"
        case is String.Type: return "a string"
        case is Bool.Type: return "true or false"
        default:
            let name = String(describing: type)
            return name.hasPrefix("Array") ? "a list" : "a mapping (\(name))"
        }
    }
}
