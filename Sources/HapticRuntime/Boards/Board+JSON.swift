import FoundationEssentials

extension Board {
    /// Reads and checks a board described in JSON — a board file's keys and values (Boards/*.yml
    /// documents them), as an object — held in memory; `source` names it in problems.
    ///
    /// What a firmware that carries its board in the program uses: board files in YAML need
    /// `BoardFiles`, whose YAML reader brings full Foundation (and ICU) into a static build, while
    /// this reads with FoundationEssentials. Every problem is located by line, column and key, as
    /// in a YAML file.
    /// - Throws: `BoardError.invalid` with every problem of the text.
    public init(json: String, source: String) throws(BoardError) {
        try self.init(reading: { () throws(BoardFileError) in try BoardFile.json(json, path: source) })
    }
}

extension BoardFile {
    /// Decodes a board described in JSON (`path` names it in errors). Trailing commas are
    /// accepted, as `LocatedJSONReader` accepts them in AHAP.
    static func json(_ text: String, path: String) throws(BoardFileError) -> BoardFile {
        let root: LocatedJSON
        do {
            root = try LocatedJSONReader.read(text)
        } catch {
            let position = BoardTextPosition(line: error.position.line, column: error.position.column)
            throw BoardFileError(file: path, position: position, keyPath: nil, message: "not valid JSON: \(error.message)")
        }
        return try decoding(path: path, sourceMap: root, readsBaseSixty: false) { userInfo in
            let decoder = JSONDecoder()
            // JSON5 is a superset of what the located reader accepted (trailing commas).
            decoder.allowsJSON5 = true
            decoder.userInfo = userInfo
            return try decoder.decode(BoardDescription.self, from: Data(text.utf8))
        }
    }
}
