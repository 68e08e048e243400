/// A JSON value together with where it was written (1-based line and column), so that scenario
/// errors can point at the line. Object members keep their file order.
///
/// A node is a plain value (its children sit in their arrays' storage) with 32-bit positions: a
/// portfolio scenario has millions of nodes, and a boxed value per node and 64-bit positions made its
/// tree some 20 times the file's size.
public struct JSONNode: Sendable, Equatable {
    /// The JSON value kinds. Numbers keep their source text so integers are read exactly.
    public enum Value: Sendable, Equatable {
        case null
        case bool(Bool)
        case number(Double, text: String)
        case string(String)
        case array([JSONNode])
        case object([Member])
    }

    /// One `"key": value` of an object.
    public struct Member: Sendable, Equatable {
        /// The key.
        public let key: String
        /// The value.
        public let value: JSONNode
        private let storedKeyLine: UInt32

        /// Where the key was written.
        public var keyLine: Int { Int(storedKeyLine) }

        public init(key: String, keyLine: Int, value: JSONNode) {
            self.key = key
            self.value = value
            storedKeyLine = UInt32(clamping: keyLine)
        }
    }

    /// The value.
    public let value: Value
    private let storedLine: UInt32
    private let storedColumn: UInt32

    /// 1-based line of the value's first character.
    public var line: Int { Int(storedLine) }
    /// 1-based column of the value's first character.
    public var column: Int { Int(storedColumn) }

    /// A value written at `line` and `column` (1-based; past 2³² − 1 they read as that).
    public init(value: Value, line: Int, column: Int) {
        self.value = value
        storedLine = UInt32(clamping: line)
        storedColumn = UInt32(clamping: column)
    }

    /// A short name of the value's kind for messages: `a string`, `a number`, `an object` …
    public var kindDescription: String {
        switch value {
        case .null: "null"
        case .bool: "a boolean"
        case .number: "a number"
        case .string: "a string"
        case .array: "an array"
        case .object: "an object"
        }
    }
}
