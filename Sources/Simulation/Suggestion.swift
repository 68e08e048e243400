/// "Did you mean …?" for mistyped keys, commands and flags: the nearest candidate by edit distance.
public enum Suggestion {
    /// Words longer than this get no suggestion: nobody mistypes a 200-character name, and the work is
    /// bounded (issue 26: a 5 MB Item name took 28 s to refuse against every Item).
    public static let maxWordLength = 200

    /// The candidate nearest to `word`, if it is close enough to be a typo (distance ≤ max(2, length/3));
    /// ties go to the alphabetically first. Case differences count as one edit each.
    /// - Complexity: O(candidates × 200²) at most: longer words and candidates whose length alone puts
    ///   them out of reach are not compared.
    public static func closest(to word: String, in candidates: [String]) -> String? {
        // utf8.count first: O(1) for native strings, and a long word is refused before it is walked.
        guard word.utf8.count <= maxWordLength * 4, word.count <= maxWordLength else { return nil }
        let limit = max(2, word.count / 3)
        var best: (String, Int)?
        for candidate in candidates {
            guard candidate.utf8.count <= maxWordLength * 4 else { continue }
            let length = candidate.count
            guard length <= maxWordLength, abs(length - word.count) <= limit else { continue }
            let distance = editDistance(word, candidate)
            guard distance <= limit else { continue }
            if let b = best, (b.1, b.0) <= (distance, candidate) { continue }
            best = (candidate, distance)
        }
        return best?.0
    }

    /// The Levenshtein distance between `a` and `b` (insertions, deletions, substitutions of characters).
    /// - Complexity: O(a.count × b.count).
    public static func editDistance(_ a: String, _ b: String) -> Int {
        let a = Array(a), b = Array(b)
        guard !a.isEmpty else { return b.count }
        guard !b.isEmpty else { return a.count }
        var previous = Array(0...b.count)
        var current = previous
        for i in 1...a.count {
            current[0] = i
            for j in 1...b.count {
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
            }
            swap(&previous, &current)
        }
        return previous[b.count]
    }
}
