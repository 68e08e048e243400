import Foundation

/// A request target (`/data/2.5/weather?q=Budapest,HU&appid=…`) split into path and query.
struct FeedRequest {
    /// The path, percent-encoded as received (`/data/2.5/weather`).
    let path: String
    /// The query parameters in order, names and values decoded (`+` is a space).
    let parameters: [(name: String, value: String)]

    /// Parses an origin-form target (`/path?query`) or an absolute URL (`https://host/path?query`);
    /// a fragment is ignored.
    ///
    /// One pass over the UTF-8 bytes (the delimiters `#`, `?`, `&`, `=`, `/` and `:` are ASCII, so every
    /// cut falls between whole characters); Foundation decodes only values that hold `+` or `%`.
    init(target: String) {
        var target = target
        (path, parameters) = target.withUTF8 { Self.parse($0) }
    }

    /// The first value of parameter `name`, if present.
    subscript(name: String) -> String? { parameters.first { $0.name == name }?.value }

    // MARK: Private

    private static func parse(_ bytes: UnsafeBufferPointer<UInt8>) -> (String, [(name: String, value: String)]) {
        let end = bytes.firstIndex(of: UInt8(ascii: "#")) ?? bytes.count
        var start = 0
        // An absolute URL: drop `scheme://host`.
        if end > 0, bytes[0] != UInt8(ascii: "/"), let colon = bytes[..<end].firstIndex(of: UInt8(ascii: ":")),
           end - colon >= 3, bytes[colon + 1] == UInt8(ascii: "/"), bytes[colon + 2] == UInt8(ascii: "/") {
            start = bytes[(colon + 3)..<end].firstIndex { $0 == UInt8(ascii: "/") || $0 == UInt8(ascii: "?") } ?? end
        }
        let mark = bytes[start..<end].firstIndex(of: UInt8(ascii: "?"))
        let path = text(bytes, start..<(mark ?? end))
        var parameters: [(name: String, value: String)] = []
        guard let mark else { return (path, parameters) }
        parameters.reserveCapacity(4)
        // `&` separates pairs (empty ones skipped), the first `=` name and value.
        var pairStart = mark + 1
        while pairStart < end {
            let pairEnd = bytes[pairStart..<end].firstIndex(of: UInt8(ascii: "&")) ?? end
            if pairStart < pairEnd {
                if let equals = bytes[pairStart..<pairEnd].firstIndex(of: UInt8(ascii: "=")) {
                    parameters.append((decoded(bytes, pairStart..<equals), decoded(bytes, (equals + 1)..<pairEnd)))
                } else {
                    parameters.append((decoded(bytes, pairStart..<pairEnd), ""))
                }
            }
            pairStart = pairEnd + 1
        }
        return (path, parameters)
    }

    /// The bytes of `range` as text (they are whole characters of a `String`).
    private static func text(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> String {
        String(decoding: UnsafeBufferPointer(rebasing: bytes[range]), as: UTF8.self)
    }

    /// Form decoding: `+` → space, then percent-decoding (an invalid escape leaves the text as is).
    private static func decoded(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> String {
        let plain = text(bytes, range)
        // Nothing to decode (the usual case): the text as it is.
        if !bytes[range].contains(where: { $0 == UInt8(ascii: "+") || $0 == UInt8(ascii: "%") }) { return plain }
        let spaced = plain.replacingOccurrences(of: "+", with: " ")
        return spaced.removingPercentEncoding ?? spaced
    }
}
