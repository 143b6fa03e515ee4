/// Columns padded to their widest cell: the leading text columns left-aligned, numbers right.
struct TextTable {
    var header: [String]
    var rows: [[String]]
    /// How many leading columns hold text.
    var textColumns = 1

    var lines: [String] {
        let all = [header] + rows
        let widths = header.indices.map { column in all.map { $0.indices.contains(column) ? $0[column].count : 0 }.max() ?? 0 }
        return all.map { row in
            row.enumerated().map { column, cell in
                let padding = String(repeating: " ", count: max(0, widths[column] - cell.count))
                return column < textColumns ? cell + padding : padding + cell
            }.joined(separator: "  ")
        }
    }
}
