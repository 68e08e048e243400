/// Validation shared by openHAB's UID types (`AbstractUID`): colon-separated segments of `[\w-]*`.
enum UIDSegments {
    /// Splits and validates `text`, requiring at least `minimum` segments.
    static func parse(_ text: String, minimum: Int, kind: String, example: String) throws(SmartHomeError) -> [String] {
        let segments = text.split(separator: ":", omittingEmptySubsequences: false).map(String.init)
        guard segments.count >= minimum else {
            throw SmartHomeError(.invalidUID,
                                 "\(kind) \"\(text)\" has \(segments.count) segment(s) but needs at least \(minimum), separated by \":\" (e.g. \"\(example)\").")
        }
        for (index, segment) in segments.enumerated() {
            guard let bad = segment.unicodeScalars.first(where: { !isSegmentScalar($0) }) else { continue }
            throw SmartHomeError(.invalidUID,
                                 "\(kind) \"\(text)\" has the character \"\(bad)\" in segment \(index + 1) (\"\(segment)\"); segments may hold only letters, digits, \"_\" and \"-\".")
        }
        return segments
    }

    /// `[\w-]`: ASCII letters, digits, underscore and hyphen.
    static func isSegmentScalar(_ s: Unicode.Scalar) -> Bool {
        switch s {
        case "a"..."z", "A"..."Z", "0"..."9", "_", "-": return true
        default: return false
        }
    }
}
