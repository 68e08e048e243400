/// A JSON value together with where it was written (1-based line and column), so that scenario
/// errors can point at the line. Object members keep their file order.
public struct JSONNode: Sendable, Equatable {
    /// The JSON value kinds. Numbers keep their source text so integers are read exactly.
    public indirect enum Value: Sendable, Equatable {
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
        /// Where the key was written.
        public let keyLine: Int
        /// The value.
        public let value: JSONNode
    }

    /// The value.
    public let value: Value
    /// 1-based line of the value's first character.
    public let line: Int
    /// 1-based column of the value's first character.
    public let column: Int

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
