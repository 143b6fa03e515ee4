/// A place in an AHAP file: the file name as the user gave it and a 1-based line and column
/// (columns count characters).
public struct AHAPSourceLocation: Sendable, Hashable, CustomStringConvertible {
    /// The file as named to the reader (a path or a label such as `<stdin>`).
    public var file: String
    /// 1-based line.
    public var line: Int
    /// 1-based column, counting characters (Unicode scalars), not bytes.
    public var column: Int

    /// A location in `file`.
    public init(file: String, line: Int, column: Int) {
        self.file = file
        self.line = line
        self.column = column
    }

    /// `file:line:column`, the form editors and terminals turn into links.
    public var description: String { "\(file):\(line):\(column)" }
}
