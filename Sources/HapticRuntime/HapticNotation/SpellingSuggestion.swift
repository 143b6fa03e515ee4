/// "Did you mean …?": the closest candidate within a small edit distance, if there is one.
enum SpellingSuggestion {
    static func closest<Candidates: Sequence<String>>(to word: String, among candidates: Candidates) -> String? {
        let lowered = word.lowercased()
        let limit = max(1, min(2, word.count / 3))
        var best: (word: String, distance: Int)?
        // Lengths further apart than the limit cannot be within it, so long words cost nothing.
        for candidate in candidates.sorted() where candidate != word && abs(candidate.count - word.count) <= limit {
            let distance = editDistance(lowered, candidate.lowercased())
            if distance <= limit, distance < (best?.distance ?? .max) { best = (candidate, distance) }
        }
        return best?.word
    }

    /// Levenshtein distance with adjacent transpositions counted as one edit (`sharpnses`).
    static func editDistance(_ a: String, _ b: String) -> Int {
        let a = Array(a), b = Array(b)
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        var previousRow: [Int] = []
        var row = Array(0...b.count)
        for i in 1...a.count {
            let beforePrevious = previousRow
            previousRow = row
            row = [i] + Array(repeating: 0, count: b.count)
            for j in 1...b.count {
                let substitution = previousRow[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1)
                row[j] = min(previousRow[j] + 1, row[j - 1] + 1, substitution)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    row[j] = min(row[j], beforePrevious[j - 2] + 1)
                }
            }
        }
        return row[b.count]
    }
}
