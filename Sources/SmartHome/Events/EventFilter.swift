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
    ///
    /// Every topic is `openhab/{items|things}/{name or UID}/{action}`, and neither Item names nor
    /// Thing UIDs can hold a `/`, so the four segments are compared in place, without building the
    /// topic text (this runs for every subscriber and every event).
    public func matches(_ event: OpenHABEvent) -> Bool {
        let (family, id, action) = event.topicSegments
        guard !id.utf8.contains(UInt8(ascii: "/")) else { return matchesTopicText(event.topic) }
        return patterns.contains { Self.match(pattern: $0, segments: ("openhab", family, id, action)) }
    }

    /// The general matcher on a topic's text.
    func matchesTopicText(_ topic: String) -> Bool {
        let segments = topic.split(separator: "/", omittingEmptySubsequences: false)
        return patterns.contains { Self.match(pattern: $0[...], segments: segments[...]) }
    }

    /// ``match(pattern:segments:)`` for a topic of exactly four segments.
    private static func match(pattern: [Substring], segments: (String, String, String, String)) -> Bool {
        for (index, head) in pattern.enumerated() {
            if head == "**" { return true }
            let segment: String
            switch index {
            case 0: segment = segments.0
            case 1: segment = segments.1
            case 2: segment = segments.2
            case 3: segment = segments.3
            default: return false  // the topic has no more segments
            }
            guard head == "*" || head == segment else { return false }
        }
        return pattern.count == 4
    }

    private static func match(pattern: ArraySlice<Substring>, segments: ArraySlice<Substring>) -> Bool {
        guard let head = pattern.first else { return segments.isEmpty }
        if head == "**" { return true }
        guard let segment = segments.first, head == "*" || head == segment else { return false }
        return match(pattern: pattern.dropFirst(), segments: segments.dropFirst())
    }
}
