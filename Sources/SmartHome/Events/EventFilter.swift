/// Which events a subscriber receives: openHAB-style topic patterns with `*` for one segment.
public struct EventFilter: Sendable, Hashable {
    private let patterns: [[Substring]]

    /// Every event.
    public static let all = EventFilter(topics: ["**"])

    /// Events whose topic matches any of `topics` (`openhab/items/*/statechanged`;
    /// `*` matches one segment, a final `**` any number).
    public init(topics: [String]) {
        patterns = topics.map { $0.split(separator: "/", omittingEmptySubsequences: false) }
    }

    /// Whether `event`'s topic matches.
    public func matches(_ event: OpenHABEvent) -> Bool {
        let segments = event.topic.split(separator: "/", omittingEmptySubsequences: false)
        return patterns.contains { Self.match(pattern: $0[...], segments: segments[...]) }
    }

    private static func match(pattern: ArraySlice<Substring>, segments: ArraySlice<Substring>) -> Bool {
        guard let head = pattern.first else { return segments.isEmpty }
        if head == "**" { return true }
        guard let segment = segments.first, head == "*" || head == segment else { return false }
        return match(pattern: pattern.dropFirst(), segments: segments.dropFirst())
    }
}
