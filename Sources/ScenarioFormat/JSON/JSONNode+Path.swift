extension JSONNode {
    /// The node at a decoder path such as `listings[0].devices[2].type` (nil when absent).
    func node(at path: String) -> JSONNode? {
        var node = self
        var rest = Substring(path)
        while !rest.isEmpty {
            if rest.first == "." { rest = rest.dropFirst() }
            if rest.first == "[" {
                guard let close = rest.firstIndex(of: "]"), let index = Int(rest[rest.index(after: rest.startIndex)..<close]),
                      case .array(let elements) = node.value, elements.indices.contains(index) else { return nil }
                node = elements[index]
                rest = rest[rest.index(after: close)...]
            } else {
                let end = rest.firstIndex { $0 == "." || $0 == "[" } ?? rest.endIndex
                let key = String(rest[..<end])
                guard case .object(let members) = node.value, let member = members.first(where: { $0.key == key }) else { return nil }
                node = member.value
                rest = rest[end...]
            }
        }
        return node
    }
}
