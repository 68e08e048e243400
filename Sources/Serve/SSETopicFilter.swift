/// The `topics` parameter of openHAB's `GET /rest/events`: comma-separated topic patterns in
/// which `*` stands for any run of characters (openHAB turns each into the regex `.*`), so
/// `openhab/items/*/statechanged` and `openhab/items/*` both work; a pattern starting with `!`
/// excludes what it matches. No parameter (or an empty one) means every event.
///
/// Like openHAB, only letters, digits, `_`, `*`, `/`, `,`, `:`, `-`, `!` and blanks are
/// accepted; anything else is a bad request.
public struct SSETopicFilter: Sendable, Equatable {
    /// Patterns whose match admits an event (empty: every event).
    public let includes: [String]
    /// Patterns whose match excludes an event.
    public let excludes: [String]

    /// Parses `topics`.
    /// - Throws: ``ServeError`` `serve.badRequest` for a character openHAB's filter does not allow.
    public init(_ topics: String?) throws(ServeError) {
        var includes: [String] = [], excludes: [String] = []
        for part in (topics ?? "").split(separator: ",") {
            let pattern = part.trimmingCharacters(in: " \t")
            guard !pattern.isEmpty else { continue }
            if let bad = pattern.unicodeScalars.first(where: { !Self.allowed($0) }) {
                throw ServeError(.badRequest, "The topic filter \"\(pattern)\" holds \"\(bad)\"; write topics like openhab/items/*/statechanged, "
                                 + "separated by commas (letters, digits, _, *, /, :, - and a leading ! only).")
            }
            if pattern.hasPrefix("!") { excludes.append(String(pattern.dropFirst())) } else { includes.append(pattern) }
        }
        self.includes = includes
        self.excludes = excludes
    }

    /// Whether an event with `topic` passes.
    public func matches(_ topic: String) -> Bool {
        let text = Array(topic.utf8)
        if !includes.isEmpty, !includes.contains(where: { Self.glob(Array($0.utf8), text) }) { return false }
        return !excludes.contains { Self.glob(Array($0.utf8), text) }
    }

    private static func allowed(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar {
        case "a"..."z", "A"..."Z", "0"..."9", "_", "*", "/", ":", "-", "!", " ": true
        default: false
        }
    }

    /// Whether `text` matches `pattern` whole, `*` matching any run of bytes (linear backtracking on the last `*`).
    static func glob(_ pattern: [UInt8], _ text: [UInt8]) -> Bool {
        var p = 0, t = 0
        var star: Int?, mark = 0
        let asterisk = UInt8(ascii: "*")
        while t < text.count {
            if p < pattern.count, pattern[p] == asterisk {
                star = p
                mark = t
                p += 1
            } else if p < pattern.count, pattern[p] == text[t] {
                p += 1
                t += 1
            } else if let s = star {
                p = s + 1
                mark += 1
                t = mark
            } else {
                return false
            }
        }
        while p < pattern.count, pattern[p] == asterisk { p += 1 }
        return p == pattern.count
    }
}

private extension Substring {
    func trimmingCharacters(in set: String) -> String {
        let blanks = Set(set)
        return String(drop { blanks.contains($0) }.reversed().drop { blanks.contains($0) }.reversed())
    }
}
