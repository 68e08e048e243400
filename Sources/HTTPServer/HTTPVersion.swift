/// An HTTP protocol version such as `HTTP/1.1`.
public struct HTTPVersion: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// The major version (1 for every version this server speaks).
    public var major: Int
    /// The minor version (0 or 1).
    public var minor: Int

    /// Creates a version from its two digits.
    public init(major: Int, minor: Int) {
        self.major = major
        self.minor = minor
    }

    /// `HTTP/1.0`.
    public static let http10 = HTTPVersion(major: 1, minor: 0)
    /// `HTTP/1.1`.
    public static let http11 = HTTPVersion(major: 1, minor: 1)

    /// `HTTP/1.1`-style text.
    public var description: String { "HTTP/\(major).\(minor)" }

    /// Orders by major, then minor version.
    public static func < (lhs: HTTPVersion, rhs: HTTPVersion) -> Bool {
        (lhs.major, lhs.minor) < (rhs.major, rhs.minor)
    }
}
