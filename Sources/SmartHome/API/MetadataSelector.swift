import Foundation

/// The `?metadata=` selector of `GET /rest/items` (openHAB's `MetadataSelectorMatcher`): comma-separated
/// namespaces, each a name or a regular expression; a namespace is selected when it is one of the
/// names or the expressions match at its end (`(a|b)$`, found anywhere, as Java's `Pattern.asPredicate`).
struct MetadataSelector {
    private let names: Set<String>
    private let pattern: NSRegularExpression?

    /// The selector `text`; `nil` or empty selects nothing.
    init(_ text: String?) {
        let parts = (text ?? "").split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        names = Set(parts)
        pattern = parts.isEmpty ? nil : try? NSRegularExpression(pattern: "(" + parts.joined(separator: "|") + ")$")
    }

    /// Whether `namespace` is selected.
    func matches(_ namespace: String) -> Bool {
        if names.contains(namespace) { return true }
        guard let pattern else { return false }
        return pattern.firstMatch(in: namespace, range: NSRange(namespace.startIndex..., in: namespace)) != nil
    }
}
