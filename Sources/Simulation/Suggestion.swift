/// "Did you mean …?" for mistyped keys, commands and flags: the nearest candidate by edit distance.
public enum Suggestion {
    /// The candidate nearest to `word`, if it is close enough to be a typo (distance ≤ max(2, length/3));
    /// ties go to the alphabetically first. Case differences count as one edit each.
    public static func closest(to word: String, in candidates: [String]) -> String? {
        let scored = candidates.map { ($0, editDistance(word, $0)) }.sorted { ($0.1, $0.0) < ($1.1, $1.0) }
        guard let best = scored.first, best.1 <= max(2, word.count / 3) else { return nil }
        return best.0
    }

    /// The Levenshtein distance between `a` and `b` (insertions, deletions, substitutions of characters).
    /// - Complexity: O(a.count × b.count).
    public static func editDistance(_ a: String, _ b: String) -> Int {
        let a = Array(a), b = Array(b)
        guard !a.isEmpty else { return b.count }
        guard !b.isEmpty else { return a.count }
        var previous = Array(0...b.count)
        for i in 1...a.count {
            var current = [i] + Array(repeating: 0, count: b.count)
            for j in 1...b.count {
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
            }
            previous = current
        }
        return previous[b.count]
    }
}
