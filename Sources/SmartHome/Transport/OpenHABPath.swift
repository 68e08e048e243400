import Foundation

/// Percent-encoding of REST path segments and of the twin's error-message header.
public enum OpenHABPath {
    /// Characters a path segment keeps as they are: RFC 3986 unreserved plus `:` and `@`
    /// (channel UIDs keep their colons, as openHAB's own clients send them).
    private static let segmentAllowed = CharacterSet(charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~:@")
    /// Printable ASCII except `%`: what a header value keeps as it is.
    private static let headerAllowed = CharacterSet(charactersIn: Unicode.Scalar(0x20)...Unicode.Scalar(0x7E))
        .subtracting(CharacterSet(charactersIn: "%"))

    /// `segment` percent-encoded for a path; names and UIDs that need nothing are returned as they are.
    static func encode(_ segment: String) -> String {
        let plain = segment.utf8.allSatisfy { byte in
            (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z")) || (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z"))
                || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")) || byte == UInt8(ascii: "_") || byte == UInt8(ascii: "-")
                || byte == UInt8(ascii: ":") || byte == UInt8(ascii: ".")
        }
        if plain { return segment }
        return segment.addingPercentEncoding(withAllowedCharacters: segmentAllowed) ?? segment
    }

    /// The decoded segments of a path (`/rest/items/a%20b/state` → `rest`, `items`, `a b`, `state`), any
    /// `?query` ignored;
    /// a segment with a broken escape stays as it was sent.
    public static func segments(of path: String) -> [String] {
        // A scan of the path's contiguous UTF-8 (a native string's own buffer): the generic `split` was a tenth
        // of a portfolio run's time when every command crossed it, and a scan through `String.UTF8View`'s
        // indices still a third of a routed Item read.
        var path = path
        return path.withUTF8 { bytes in
            var end = bytes.count
            for i in 0..<bytes.count where bytes[i] == UInt8(ascii: "?") {
                end = i
                break
            }
            var segments: [String] = []
            segments.reserveCapacity(6)
            var start = 0
            var escaped = false
            for index in 0...end {
                let byte = index < end ? bytes[index] : UInt8(ascii: "/")
                if byte == UInt8(ascii: "/") {
                    if start < index {
                        let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self)
                        segments.append(escaped ? text.removingPercentEncoding ?? text : text)
                    }
                    start = index + 1
                    escaped = false
                } else if byte == UInt8(ascii: "%") {
                    escaped = true
                }
            }
            return segments
        }
    }

    /// `text` as a header value: printable ASCII, everything else and `%` percent-encoded.
    static func headerValue(_ text: String) -> String {
        text.addingPercentEncoding(withAllowedCharacters: headerAllowed) ?? text
    }

    /// The text of a header value written by ``headerValue(_:)``.
    static func headerText(_ value: String) -> String { value.removingPercentEncoding ?? value }

    /// Whether two header names are equal ignoring ASCII case, without allocating lower-cased copies.
    static func equalIgnoringASCIICase(_ a: String, _ b: String) -> Bool {
        guard a.utf8.count == b.utf8.count else { return false }
        return zip(a.utf8, b.utf8).allSatisfy { x, y in
            x == y || (x | 0x20 == y | 0x20 && (x | 0x20) >= UInt8(ascii: "a") && (x | 0x20) <= UInt8(ascii: "z"))
        }
    }
}
