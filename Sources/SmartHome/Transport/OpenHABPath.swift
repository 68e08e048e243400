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
        withSegments(of: path) { segments in (0..<segments.count).map(segments.text) }
    }

    /// Calls `body` with the segments of `path` as ``segments(of:)`` cuts them, as ranges of the path's own UTF-8:
    /// no `String` per segment (a route is matched on the bytes, and only a matched route's parameters become text).
    static func withSegments<Result>(of path: String, _ body: (PathSegments) -> Result) -> Result {
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
            // A segment is at least one byte and a `/`: at most `end / 2 + 1` of them (on the stack for any usual path).
            return withUnsafeTemporaryAllocation(of: PathSegments.Segment.self, capacity: end / 2 + 1) { buffer in
                var count = 0
                var start = 0
                var escaped = false
                var high: UInt8 = 0
                for index in 0...end {
                    let byte = index < end ? bytes[index] : UInt8(ascii: "/")
                    if byte == UInt8(ascii: "/") {
                        if start < index {
                            buffer[count] = PathSegments.Segment(range: start..<index, escaped: escaped, ascii: high < 0x80)
                            count += 1
                        }
                        start = index + 1
                        escaped = false
                        high = 0
                    } else {
                        if byte == UInt8(ascii: "%") { escaped = true }
                        high |= byte
                    }
                }
                return body(PathSegments(bytes: bytes, segments: UnsafeBufferPointer(rebasing: buffer[..<count])))
            }
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

/// The segments of a request path, cut by ``OpenHABPath/withSegments(of:_:)``: ranges of the path's UTF-8, each made
/// text (percent-decoded) only when asked. Valid only inside that call.
struct PathSegments {
    /// One segment: its bytes in the path, whether it holds a `%` (then its text is percent-decoded), and whether
    /// all its bytes are ASCII.
    struct Segment {
        let range: Range<Int>
        let escaped: Bool
        let ascii: Bool
    }

    let bytes: UnsafeBufferPointer<UInt8>
    let segments: UnsafeBufferPointer<Segment>

    /// How many segments there are (none is empty).
    var count: Int { segments.count }

    /// Segment `i` decoded (a broken escape left as it was sent).
    func text(_ i: Int) -> String {
        let segment = segments[i]
        let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[segment.range]), as: UTF8.self)
        return segment.escaped ? text.removingPercentEncoding ?? text : text
    }

    /// Whether segment `i`, decoded, is `literal` (given as its UTF-8) as `String` compares them: on the bytes for
    /// a plain ASCII segment, as text (canonical equivalence: `K` is the Kelvin sign) for one with an escape or non-ASCII.
    func segment(_ i: Int, is literal: [UInt8]) -> Bool {
        let segment = segments[i]
        if segment.escaped || !segment.ascii { return text(i) == String(decoding: literal, as: UTF8.self) }
        guard segment.range.count == literal.count else { return false }
        var j = 0
        var at = segment.range.lowerBound
        while j < literal.count {
            guard bytes[at] == literal[j] else { return false }
            j += 1
            at += 1
        }
        return true
    }
}
