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
        // An absolute URL: drop `scheme://host` (a byte scan; Foundation's `range(of:)` cost a tenth of a watcher run).
        if !rest.hasPrefix("/"), let colon = rest.utf8.firstIndex(of: UInt8(ascii: ":")),
           rest.utf8[colon...].starts(with: "://".utf8) {
            let afterScheme = rest[rest.utf8.index(colon, offsetBy: 3)...]
            rest = afterScheme.utf8.firstIndex(where: { $0 == UInt8(ascii: "/") || $0 == UInt8(ascii: "?") }).map { afterScheme[$0...] } ?? ""
        }
        let query: Substring
        if let mark = rest.firstIndex(of: "?") {
            path = String(rest[..<mark])
            query = rest[rest.index(after: mark)...]
        } else {
            path = String(rest)
            query = ""
        }
        // Byte scans over the query: `&` separates pairs (empty ones skipped), the first `=` name and value.
        var parameters: [(name: String, value: String)] = []
        let bytes = query.utf8
        var start = bytes.startIndex
        while start < bytes.endIndex {
            let end = bytes[start...].firstIndex(of: UInt8(ascii: "&")) ?? bytes.endIndex
            if start < end {
                let pair = bytes[start..<end]
                if let equals = pair.firstIndex(of: UInt8(ascii: "=")) {
                    parameters.append((Self.decode(Substring(pair[..<equals])), Self.decode(Substring(pair[bytes.index(after: equals)...]))))
                } else {
                    parameters.append((Self.decode(Substring(pair)), ""))
                }
            }
            start = end < bytes.endIndex ? bytes.index(after: end) : end
        }
        self.parameters = parameters
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
