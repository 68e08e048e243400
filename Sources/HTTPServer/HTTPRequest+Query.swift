extension HTTPRequest {
    /// Parses `a=1&b=x+y&c=%C3%A9` into `["a": "1", "b": "x y", "c": "é"]`.
    ///
    /// Empty pairs are skipped, a name without `=` maps to `""`, and the first of repeated
    /// names wins. Malformed escapes are kept literally; invalid UTF-8 becomes U+FFFD.
    public static func parseQuery(_ query: String) -> [String: String] {
        var result: [String: String] = [:]
        for pair in query.split(separator: "&", omittingEmptySubsequences: true) {
            let equals = pair.firstIndex(of: "=")
            let name = formDecode(pair[..<(equals ?? pair.endIndex)])
            let value = equals.map { formDecode(pair[pair.index(after: $0)...]) } ?? ""
            if result[name] == nil { result[name] = value }
        }
        return result
    }

    /// Decodes `+` as a space and `%XX` escapes as bytes, then reads the bytes as UTF-8.
    static func formDecode(_ text: Substring) -> String {
        let bytes = Array(text.utf8)
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count)
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "+") {
                out.append(UInt8(ascii: " "))
            } else if byte == UInt8(ascii: "%"), index + 2 < bytes.count,
                      let high = hexValue(bytes[index + 1]), let low = hexValue(bytes[index + 2]) {
                out.append(high << 4 | low)
                index += 2
            } else {
                out.append(byte)
            }
            index += 1
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// The value of one hexadecimal digit, or `nil`.
    static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
