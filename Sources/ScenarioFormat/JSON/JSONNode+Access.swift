import Simulation

/// Reading a node as a plain value, and building and writing nodes: the one JSON value type of the
/// package outside the hot wire formats (request bodies of `serve`, its OpenAPI document, the fuzzer).
extension JSONNode {
    /// A node built in code rather than read from a file (line and column 0).
    public init(_ value: Value) { self.init(value: value, line: 0, column: 0) }

    /// A string node.
    public static func string(_ text: String) -> JSONNode { JSONNode(.string(text)) }
    /// A boolean node.
    public static func bool(_ value: Bool) -> JSONNode { JSONNode(.bool(value)) }
    /// An integer node.
    public static func int(_ value: Int) -> JSONNode { JSONNode(.number(Double(value), text: String(value))) }
    /// An array node.
    public static func array(_ elements: [JSONNode]) -> JSONNode { JSONNode(.array(elements)) }
    /// An object node with its members in the given order.
    public static func object(_ members: [(String, JSONNode)]) -> JSONNode {
        JSONNode(.object(members.map { Member(key: $0.0, keyLine: 0, value: $0.1) }))
    }

    /// The member `key` of an object; nil when absent or when this is no object.
    public subscript(key: String) -> JSONNode? {
        guard case .object(let members) = value else { return nil }
        return members.first { $0.key == key }?.value
    }

    /// The members of an object, in file order; nil when this is no object.
    public var members: [Member]? {
        if case .object(let members) = value { return members }
        return nil
    }

    /// The elements of an array; nil when this is no array.
    public var elements: [JSONNode]? {
        if case .array(let elements) = value { return elements }
        return nil
    }

    /// The text of a string; nil for any other kind.
    public var stringValue: String? {
        if case .string(let text) = value { return text }
        return nil
    }

    /// The value of `true` or `false`; nil for any other kind.
    public var boolValue: Bool? {
        if case .bool(let flag) = value { return flag }
        return nil
    }

    /// A number with a whole value that fits an `Int` (`5`, `5.0`, `5e0`); nil otherwise.
    public var intValue: Int? {
        guard case .number(let number, let text) = value else { return nil }
        if let exact = Int(text) { return exact }
        return number.rounded(.towardZero) == number ? Int(exactly: number) : nil
    }

    /// Whether this is `null`.
    public var isNull: Bool {
        if case .null = value { return true }
        return false
    }

    /// The node as JSON text. Numbers keep their text, strings are escaped as ``JSONString`` does,
    /// members keep their order unless `sortingKeys`; `pretty` puts each member and element on a
    /// line of its own, indented by two spaces.
    public func text(pretty: Bool = false, sortingKeys: Bool = false) -> String {
        var out = ""
        write(to: &out, pretty: pretty, sortingKeys: sortingKeys, indent: 0)
        return out
    }

    private func write(to out: inout String, pretty: Bool, sortingKeys: Bool, indent: Int) {
        func newline(_ out: inout String, _ level: Int) { if pretty { out += "\n" + String(repeating: "  ", count: level) } }
        switch value {
        case .null: out += "null"
        case .bool(let flag): out += flag ? "true" : "false"
        case .number(_, let text): out += text
        case .string(let text): JSONString.append(text, to: &out)
        case .array(let elements):
            guard !elements.isEmpty else { out += "[]"; return }
            out += "["
            for (index, element) in elements.enumerated() {
                if index > 0 { out += "," }
                newline(&out, indent + 1)
                element.write(to: &out, pretty: pretty, sortingKeys: sortingKeys, indent: indent + 1)
            }
            newline(&out, indent)
            out += "]"
        case .object(let members):
            guard !members.isEmpty else { out += "{}"; return }
            out += "{"
            let ordered = sortingKeys ? members.sorted { $0.key < $1.key } : members
            for (index, member) in ordered.enumerated() {
                if index > 0 { out += "," }
                newline(&out, indent + 1)
                JSONString.append(member.key, to: &out)
                out += pretty ? ": " : ":"
                member.value.write(to: &out, pretty: pretty, sortingKeys: sortingKeys, indent: indent + 1)
            }
            newline(&out, indent)
            out += "}"
        }
    }
}
