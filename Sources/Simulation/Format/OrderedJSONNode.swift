/// A JSON value under construction; a reference so nested containers can fill it in later.
final class OrderedJSONNode {
    /// What the node holds so far.
    enum Content {
        /// Nothing encoded yet (written as `{}`).
        case empty
        /// A finished scalar, already in JSON syntax.
        case literal(String)
        /// An object, keys in insertion order.
        case object([(key: String, value: OrderedJSONNode)])
        /// An array.
        case array([OrderedJSONNode])
    }

    var content: Content = .empty

    init() {}

    /// The child for `key` of an object node, created (at the end) if new; a repeated key
    /// keeps its first position and gets a fresh value.
    func child(forKey key: String) -> OrderedJSONNode {
        var entries: [(key: String, value: OrderedJSONNode)] = []
        if case .object(let existing) = content { entries = existing }
        let node = OrderedJSONNode()
        if let i = entries.firstIndex(where: { $0.key == key }) {
            entries[i].value = node
        } else {
            entries.append((key, node))
        }
        content = .object(entries)
        return node
    }

    /// Appends a new element to an array node.
    func appendChild() -> OrderedJSONNode {
        var elements: [OrderedJSONNode] = []
        if case .array(let existing) = content { elements = existing }
        let node = OrderedJSONNode()
        elements.append(node)
        content = .array(elements)
        return node
    }

    /// Makes this node an (empty) object unless it already is one.
    func becomeObject() {
        if case .object = content { return }
        content = .object([])
    }

    /// Makes this node an (empty) array unless it already is one.
    func becomeArray() {
        if case .array = content { return }
        content = .array([])
    }

    /// The number of array elements (0 for other kinds).
    var elementCount: Int {
        if case .array(let elements) = content { return elements.count }
        return 0
    }

    /// Appends the node's compact JSON text.
    func write(into out: inout String) {
        switch content {
        case .empty:
            out += "{}"
        case .literal(let text):
            out += text
        case .object(let entries):
            out += "{"
            for (i, entry) in entries.enumerated() {
                if i > 0 { out += "," }
                JSONString.append(entry.key, to: &out)
                out += ":"
                entry.value.write(into: &out)
            }
            out += "}"
        case .array(let elements):
            out += "["
            for (i, element) in elements.enumerated() {
                if i > 0 { out += "," }
                element.write(into: &out)
            }
            out += "]"
        }
    }
}
