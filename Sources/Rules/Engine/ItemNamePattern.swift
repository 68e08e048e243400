/// The `itemName` of an Item trigger: a name, or a pattern with `*` (any run of characters) and `?` (one
/// character), as openHAB's `ItemStateTriggerHandler` accepts since 4.x.
public struct ItemNamePattern: Sendable, Hashable, CustomStringConvertible {
    /// The text as configured.
    public let text: String
    private let characters: [Character]
    /// Whether the text holds a wildcard.
    public let isWildcard: Bool

    /// A pattern; `*` and `?` are wildcards.
    public init(_ text: String) {
        self.text = text
        self.characters = Array(text)
        self.isWildcard = characters.contains { $0 == "*" || $0 == "?" }
    }

    /// Whether `name` matches the whole pattern.
    public func matches(_ name: String) -> Bool {
        if !isWildcard { return name == text }
        let subject = Array(name)
        // Classic two-pointer glob match with back-tracking to the last `*`.
        var p = 0, s = 0, star = -1, mark = 0
        while s < subject.count {
            if p < characters.count, characters[p] == "?" || characters[p] == subject[s] {
                p += 1; s += 1
            } else if p < characters.count, characters[p] == "*" {
                star = p; mark = s; p += 1
            } else if star >= 0 {
                p = star + 1; mark += 1; s = mark
            } else {
                return false
            }
        }
        while p < characters.count, characters[p] == "*" { p += 1 }
        return p == characters.count
    }

    public var description: String { text }
}
