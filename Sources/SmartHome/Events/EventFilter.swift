/// Which events a subscriber receives: openHAB-style topic patterns with `*` for one segment.
public struct EventFilter: Sendable, Hashable {
    /// One `/`-separated part of a pattern, classified once when the filter is made.
    private enum Segment: Sendable, Hashable {
        /// `*`: any one segment.
        case one
        /// `**`: everything from here on.
        case rest
        /// A segment that must be equal.
        case literal(String)
    }

    private let patterns: [[Segment]]
    /// Patterns without wildcards, `openhab/{family}/{id}/{action}`, looked up by id: a subscriber that
    /// names many Items (the meters' power Items) is matched in one hash look-up, not one pass per pattern.
    private let exact: [String: [(family: String, action: String)]]

    /// Every event.
    public static let all = EventFilter(topics: ["**"])

    /// Events whose topic matches any of `topics` (`openhab/items/*/statechanged`;
    /// `*` matches one segment, a final `**` any number).
    public init(topics: [String]) {
        var general: [[Segment]] = []
        var exact: [String: [(family: String, action: String)]] = [:]
        for topic in topics {
            let pattern: [Segment] = topic.split(separator: "/", omittingEmptySubsequences: false).map { part in
                part == "**" ? .rest : part == "*" ? .one : .literal(String(part))
            }
            if pattern.count == 4, case .literal("openhab") = pattern[0], case .literal(let family) = pattern[1],
               case .literal(let id) = pattern[2], case .literal(let action) = pattern[3] {
                exact[id, default: []].append((family, action))
            } else {
                general.append(pattern)
            }
        }
        self.patterns = general
        self.exact = exact
    }

    public static func == (lhs: EventFilter, rhs: EventFilter) -> Bool {
        lhs.patterns == rhs.patterns && lhs.exact.keys.sorted() == rhs.exact.keys.sorted()
            && lhs.exact.keys.allSatisfy { key in
                (lhs.exact[key] ?? []).map { "\($0.family)/\($0.action)" } == (rhs.exact[key] ?? []).map { "\($0.family)/\($0.action)" }
            }
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(patterns)
        for key in exact.keys.sorted() {
            hasher.combine(key)
            for entry in exact[key] ?? [] { hasher.combine(entry.family); hasher.combine(entry.action) }
        }
    }

    /// Whether a pattern has wildcards (`*`, `**`), or is not an exact openHAB topic: it may match
    /// an event about any Item or Thing.
    var hasWildcardPatterns: Bool { !patterns.isEmpty }

    /// The Item names and Thing UIDs the exact patterns name.
    var namedIDs: Dictionary<String, [(family: String, action: String)]>.Keys { exact.keys }

    /// Whether `event`'s topic matches.
    ///
    /// Every topic is `openhab/{items|things}/{Item name or Thing UID}/{action}`, and neither a
    /// valid Item name nor a valid Thing UID can hold a `/`, so the topic has exactly these four
    /// segments; they are compared in place, without building the topic text (this runs for
    /// every subscriber and every event).
    public func matches(_ event: OpenHABEvent) -> Bool {
        let (family, id, action) = event.topicSegments
        if let entries = exact[id], entries.contains(where: { $0.family == family && $0.action == action }) { return true }
        return patterns.contains { Self.match(pattern: $0, segments: ("openhab", family, id, action)) }
    }

    /// The general matcher on a topic's text (what ``matches(_:)`` must agree with).
    func matchesTopicText(_ topic: String) -> Bool {
        let segments = topic.split(separator: "/", omittingEmptySubsequences: false)
        if segments.count == 4, segments[0] == "openhab", let entries = exact[String(segments[2])],
           entries.contains(where: { $0.family == segments[1] && $0.action == segments[3] }) { return true }
        return patterns.contains { Self.match(pattern: $0[...], segments: segments[...]) }
    }

    /// ``match(pattern:segments:)`` for a topic of exactly four segments.
    private static func match(pattern: [Segment], segments: (String, String, String, String)) -> Bool {
        for (index, head) in pattern.enumerated() {
            let segment: String
            switch index {
            case 0: segment = segments.0
            case 1: segment = segments.1
            case 2: segment = segments.2
            case 3: segment = segments.3
            default: return head == .rest  // the topic has no more segments
            }
            switch head {
            case .rest: return true
            case .one: continue
            case .literal(let text): guard text == segment else { return false }
            }
        }
        return pattern.count == 4
    }

    private static func match(pattern: ArraySlice<Segment>, segments: ArraySlice<Substring>) -> Bool {
        guard let head = pattern.first else { return segments.isEmpty }
        if head == .rest { return true }
        guard let segment = segments.first else { return false }
        if case .literal(let text) = head, text != segment { return false }
        return match(pattern: pattern.dropFirst(), segments: segments.dropFirst())
    }
}
