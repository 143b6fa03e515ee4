/// Finds the valid name a user probably meant, for "did you mean" hints: a name that differs
/// only in letter case (`hapticTransient`), else the nearest within two edits (`HapticIntensty`).
enum NameSuggestion {
    /// Longer names are not compared, so a hostile file cannot make the comparison expensive.
    private static let longestComparedName = 64
    /// The most edits a suggestion may be away.
    private static let maximumDistance = 2

    static func nearest(to name: String, in candidates: [String]) -> String? {
        let lowered = name.lowercased()
        if let sameLetters = candidates.first(where: { $0.lowercased() == lowered }) {
            return sameLetters
        }
        guard name.count <= longestComparedName else { return nil }
        let letters = Array(lowered)
        var best: (name: String, distance: Int)?
        for candidate in candidates {
            let candidateLetters = Array(candidate.lowercased())
            // A length that differs by more than the allowed edits is farther than that: no table.
            guard abs(candidateLetters.count - letters.count) <= maximumDistance else { continue }
            let distance = editDistance(letters, candidateLetters)
            if distance <= maximumDistance, distance < best?.distance ?? .max { best = (candidate, distance) }
        }
        return best?.name
    }

    /// Levenshtein distance over characters.
    private static func editDistance(_ a: [Character], _ b: [Character]) -> Int {
        if a.isEmpty { return b.count }
        var previous = Array(0...b.count)
        var current = previous
        for i in 1...a.count {
            current[0] = i
            for j in stride(from: 1, through: b.count, by: 1) {
                let substitution = previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1)
                current[j] = min(previous[j] + 1, current[j - 1] + 1, substitution)
            }
            swap(&previous, &current)
        }
        return previous[b.count]
    }
}
