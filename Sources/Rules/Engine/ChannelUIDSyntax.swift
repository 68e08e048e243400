/// openhab-core `ChannelUID` syntax: at least four `:`-separated segments (`binding:thing-type:thing:channel`,
/// or more with bridges), each of `AbstractUID`'s `[\w-]` characters; the last may hold one `#` between a
/// channel group and the channel (`astro:sun:home:set#event`).
public enum ChannelUIDSyntax {
    /// What is wrong with `uid`, or `nil` when openHAB would accept it.
    public static func problem(_ uid: String) -> String? {
        let segments = uid.split(separator: ":", omittingEmptySubsequences: false)
        guard segments.count >= 4 else { return "it has \(segments.count) segment(s) separated by \":\"; a channel UID has at least 4" }
        for (index, segment) in segments.enumerated() {
            let parts = index == segments.count - 1 ? segment.split(separator: "#", omittingEmptySubsequences: false) : [segment]
            guard parts.count <= 2 else { return "its channel \"\(segment)\" has more than one \"#\"" }
            for part in parts {
                guard !part.isEmpty else { return "segment \(index + 1) is empty" }
                if let bad = part.unicodeScalars.first(where: { !(("a"..."z").contains($0) || ("A"..."Z").contains($0) || ("0"..."9").contains($0) || $0 == "_" || $0 == "-") }) {
                    return "segment \(index + 1) (\"\(segment)\") has the character \"\(bad)\"; openHAB allows letters, digits, _ and -"
                }
            }
        }
        return nil
    }
}
