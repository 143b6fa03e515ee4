/// A board's description as read from a file (or built in), with what decoding met: kept so that
/// later checks can point at the line of the key they complain about.
package struct BoardFile {
    var path: String
    var description: BoardDescription
    /// What decoding met — unknown keys, missing keys, values of the wrong type, keys given twice —
    /// each located, in the order met. Decoding went on past each with a fallback, so `BoardRules`
    /// reports them together with every other problem of the file.
    var decodingProblems: [BoardFileError]
    /// The key paths those problems are about: a rule about a value there (or a name defined
    /// there) would only repeat them.
    var unreadKeyPaths: [BoardKeyPath]
    /// Where values are in the text read.
    private var sourceMap: any BoardSourceMap

    /// Decodes a board description with `decode`, which hands `userInfo` to its decoder so that
    /// decoding records every problem and goes on; `path` names the file in every problem, and
    /// `sourceMap` locates them. `readsBaseSixty`: whether the decoder reads YAML 1.1's numbers
    /// with colons in base 60 (Yams does), which are then refused before it reads them.
    /// - Throws: the one problem decoding could not go on past.
    package static func decoding(
        path: String, sourceMap: any BoardSourceMap, readsBaseSixty: Bool,
        _ decode: (_ userInfo: [CodingUserInfoKey: any Sendable]) throws -> BoardDescription
    ) throws(BoardFileError) -> BoardFile {
        let problems = BoardDecodingProblems(readsBaseSixty: readsBaseSixty)
        do {
            let description = try decode([BoardDecodingProblems.userInfoKey: problems])
            let repeated = sourceMap.repeatedKeys().map { BoardFileError(file: path, repeatedKey: $0) }
            return BoardFile(
                path: path, description: description,
                decodingProblems: problems.errors.map { BoardFileError(file: path, decodingError: $0, sourceMap: sourceMap) } + repeated,
                unreadKeyPaths: problems.unreadPaths,
                sourceMap: sourceMap
            )
        } catch let error as DecodingError {
            throw BoardFileError(file: path, decodingError: error, sourceMap: sourceMap)
        } catch {
            throw BoardFileError(file: path, position: nil, keyPath: nil, message: "\(error)")
        }
    }

    /// Every problem of the description, in file order: what decoding met and every rule broken.
    package func problems() -> [BoardFileError] {
        BoardRules(file: self).problems()
    }

    /// An error about the value at `keyPath`, located in this file.
    func problem(at keyPath: BoardKeyPath, _ message: String) -> BoardFileError {
        BoardFileError(file: path, position: sourceMap.position(of: keyPath), keyPath: keyPath, message: message)
    }
}

extension BoardFileError {
    /// Turns a Codable failure into "file:line:column: key.path: what was expected".
    init(file: String, decodingError: DecodingError, sourceMap: any BoardSourceMap) {
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
        self.init(file: file, position: sourceMap.position(of: keyPath), keyPath: keyPath, message: message)
    }

    /// A key given twice, at its second place.
    init(file: String, repeatedKey: RepeatedKey) {
        self.init(file: file, position: repeatedKey.again, keyPath: repeatedKey.keyPath, message: repeatedKey.refusal)
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
