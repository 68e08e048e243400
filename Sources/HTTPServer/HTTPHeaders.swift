/// An ordered list of header fields with case-insensitive lookup; a name may repeat.
public struct HTTPHeaders: Sendable, Equatable, Sequence, ExpressibleByDictionaryLiteral {
    /// One header field as sent: its name (case kept) and its value (surrounding whitespace trimmed).
    public struct Field: Sendable, Equatable {
        /// The field name as the peer spelled it.
        public var name: String
        /// The field value.
        public var value: String
    }

    /// The fields in the order they were sent or added.
    public private(set) var fields: [Field] = []

    /// Creates an empty header list.
    public init() {}

    /// Creates a header list from `name: value` pairs, in order.
    public init(dictionaryLiteral elements: (String, String)...) {
        fields = elements.map { Field(name: $0.0, value: $0.1) }
    }

    /// The value of the first field called `name` (any case), or `nil`.
    public subscript(name: String) -> String? {
        fields.first { Self.sameName($0.name, name) }?.value
    }

    /// Every value of the fields called `name` (any case), in order.
    public func values(for name: String) -> [String] {
        fields.filter { Self.sameName($0.name, name) }.map(\.value)
    }

    /// Appends a field, keeping any earlier ones of the same name.
    public mutating func add(_ name: String, _ value: String) {
        fields.append(Field(name: name, value: value))
    }

    /// Replaces every field called `name` (any case) with one field.
    public mutating func set(_ name: String, _ value: String) {
        remove(name)
        add(name, value)
    }

    /// Removes every field called `name` (any case).
    public mutating func remove(_ name: String) {
        fields.removeAll { Self.sameName($0.name, name) }
    }

    /// Whether a comma-separated header (`Connection`, `Transfer-Encoding`) lists `token`, any case.
    public func contains(token: String, in name: String) -> Bool {
        values(for: name).contains { value in
            value.split(separator: ",").contains { Self.sameName($0.trimmingSpaces, token) }
        }
    }

    /// The fields in order.
    public func makeIterator() -> IndexingIterator<[Field]> { fields.makeIterator() }

    /// Compares two names as ASCII without regard to case.
    static func sameName<A: StringProtocol, B: StringProtocol>(_ a: A, _ b: B) -> Bool {
        a.utf8.count == b.utf8.count && zip(a.utf8, b.utf8).allSatisfy { lower($0) == lower($1) }
    }

    private static func lower(_ byte: UInt8) -> UInt8 {
        (65...90).contains(byte) ? byte + 32 : byte
    }
}

extension StringProtocol {
    /// The text without leading and trailing spaces and tabs.
    var trimmingSpaces: Substring {
        let view = Substring(self)
        let start = view.firstIndex { $0 != " " && $0 != "\t" } ?? view.endIndex
        let end = view.lastIndex { $0 != " " && $0 != "\t" }.map { view.index(after: $0) } ?? start
        return view[start..<Swift.max(start, end)]
    }
}
