import Foundation

/// A request target (`/data/2.5/weather?q=Budapest,HU&appid=…`) split into path and query.
struct FeedRequest {
    /// The path, percent-encoded as received (`/data/2.5/weather`).
    let path: String
    /// The query parameters in order, names and values decoded (`+` is a space).
    let parameters: [(name: String, value: String)]

    /// Parses an origin-form target (`/path?query`) or an absolute URL (`https://host/path?query`);
    /// a fragment is ignored.
    init(target: String) {
        var rest = Substring(target)
        if let hash = rest.firstIndex(of: "#") { rest = rest[..<hash] }
        if let scheme = rest.range(of: "://") {
            let afterScheme = rest[scheme.upperBound...]
            rest = afterScheme.firstIndex(where: { $0 == "/" || $0 == "?" }).map { afterScheme[$0...] } ?? ""
        }
        let query: Substring
        if let mark = rest.firstIndex(of: "?") {
            path = String(rest[..<mark])
            query = rest[rest.index(after: mark)...]
        } else {
            path = String(rest)
            query = ""
        }
        parameters = query.split(separator: "&", omittingEmptySubsequences: true).map { pair in
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let name = Self.decode(parts[0])
            let value = parts.count > 1 ? Self.decode(parts[1]) : ""
            return (name, value)
        }
    }

    /// The first value of parameter `name`, if present.
    subscript(name: String) -> String? { parameters.first { $0.name == name }?.value }

    /// Form decoding: `+` → space, then percent-decoding (an invalid escape leaves the text as is).
    private static func decode(_ text: Substring) -> String {
        // Nothing to decode (the usual case): the text as it is, without Foundation's scans.
        if !text.utf8.contains(where: { $0 == UInt8(ascii: "+") || $0 == UInt8(ascii: "%") }) { return String(text) }
        let spaced = text.replacingOccurrences(of: "+", with: " ")
        return spaced.removingPercentEncoding ?? spaced
    }
}
