/// The `Encoder` behind ``OrderedJSONEncoder``: it builds an ``OrderedJSONNode`` tree.
struct OrderedJSONNodeEncoder: Encoder {
    let node: OrderedJSONNode
    let codingPath: [any CodingKey]
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        node.becomeObject()
        return KeyedEncodingContainer(KeyedContainer<Key>(node: node, codingPath: codingPath))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        node.becomeArray()
        return UnkeyedContainer(node: node, codingPath: codingPath)
    }

    func singleValueContainer() -> any SingleValueEncodingContainer {
        SingleValueContainer(node: node, codingPath: codingPath)
    }

    /// Encodes `value` into `node`; a `[String: …]` dictionary gets its keys in sorted order, since
    /// its own `encode(to:)` writes them in hash order, which changes from process to process.
    static func encode<T: Encodable>(_ value: T, into node: OrderedJSONNode, codingPath: [any CodingKey]) throws {
        if let dictionary = value as? [String: any Encodable] {
            node.becomeObject()
            for key in dictionary.keys.sorted() {
                guard let element = dictionary[key] else { continue }
                try encode(element, into: node.child(forKey: key), codingPath: codingPath)
            }
        } else {
            try value.encode(to: OrderedJSONNodeEncoder(node: node, codingPath: codingPath))
        }
    }

    /// JSON text of a number, or an `EncodingError` for NaN and infinities.
    static func literal(_ value: Double, _ codingPath: [any CodingKey]) throws -> String {
        guard let text = DecimalText.json(value) else {
            throw EncodingError.invalidValue(value, .init(codingPath: codingPath, debugDescription: "\(value) is not a finite number"))
        }
        return text
    }

    /// JSON text of a `Float`.
    static func literal(_ value: Float, _ codingPath: [any CodingKey]) throws -> String {
        guard value.isFinite else {
            throw EncodingError.invalidValue(value, .init(codingPath: codingPath, debugDescription: "\(value) is not a finite number"))
        }
        return value == value.rounded() && abs(value) < 1e7 ? String(Int64(value)) : value.description
    }
}

/// An object container writing into a node, keys in insertion order.
private struct KeyedContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
    let node: OrderedJSONNode
    let codingPath: [any CodingKey]

    private func set(_ literal: String, _ key: Key) { node.child(forKey: key.stringValue).content = .literal(literal) }

    mutating func encodeNil(forKey key: Key) throws { set("null", key) }
    mutating func encode(_ value: Bool, forKey key: Key) throws { set(value ? "true" : "false", key) }
    mutating func encode(_ value: String, forKey key: Key) throws { set(JSONString.quoted(value), key) }
    mutating func encode(_ value: Double, forKey key: Key) throws {
        set(try OrderedJSONNodeEncoder.literal(value, codingPath + [key]), key)
    }
    mutating func encode(_ value: Float, forKey key: Key) throws {
        set(try OrderedJSONNodeEncoder.literal(value, codingPath + [key]), key)
    }
    mutating func encode(_ value: Int, forKey key: Key) throws { set(String(value), key) }
    mutating func encode(_ value: Int8, forKey key: Key) throws { set(String(value), key) }
    mutating func encode(_ value: Int16, forKey key: Key) throws { set(String(value), key) }
    mutating func encode(_ value: Int32, forKey key: Key) throws { set(String(value), key) }
    mutating func encode(_ value: Int64, forKey key: Key) throws { set(String(value), key) }
    mutating func encode(_ value: UInt, forKey key: Key) throws { set(String(value), key) }
    mutating func encode(_ value: UInt8, forKey key: Key) throws { set(String(value), key) }
    mutating func encode(_ value: UInt16, forKey key: Key) throws { set(String(value), key) }
    mutating func encode(_ value: UInt32, forKey key: Key) throws { set(String(value), key) }
    mutating func encode(_ value: UInt64, forKey key: Key) throws { set(String(value), key) }

    mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
        let child = node.child(forKey: key.stringValue)
        try OrderedJSONNodeEncoder.encode(value, into: child, codingPath: codingPath + [key])
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type,
                                                        forKey key: Key) -> KeyedEncodingContainer<NestedKey> {
        let child = node.child(forKey: key.stringValue)
        child.becomeObject()
        return KeyedEncodingContainer(KeyedContainer<NestedKey>(node: child, codingPath: codingPath + [key]))
    }

    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
        let child = node.child(forKey: key.stringValue)
        child.becomeArray()
        return UnkeyedContainer(node: child, codingPath: codingPath + [key])
    }

    mutating func superEncoder() -> any Encoder {
        OrderedJSONNodeEncoder(node: node.child(forKey: "super"), codingPath: codingPath)
    }

    mutating func superEncoder(forKey key: Key) -> any Encoder {
        OrderedJSONNodeEncoder(node: node.child(forKey: key.stringValue), codingPath: codingPath + [key])
    }
}

/// An array container writing into a node.
private struct UnkeyedContainer: UnkeyedEncodingContainer {
    let node: OrderedJSONNode
    let codingPath: [any CodingKey]
    var count: Int { node.elementCount }

    private func append(_ literal: String) { node.appendChild().content = .literal(literal) }

    mutating func encodeNil() throws { append("null") }
    mutating func encode(_ value: Bool) throws { append(value ? "true" : "false") }
    mutating func encode(_ value: String) throws { append(JSONString.quoted(value)) }
    mutating func encode(_ value: Double) throws { append(try OrderedJSONNodeEncoder.literal(value, codingPath)) }
    mutating func encode(_ value: Float) throws { append(try OrderedJSONNodeEncoder.literal(value, codingPath)) }
    mutating func encode(_ value: Int) throws { append(String(value)) }
    mutating func encode(_ value: Int8) throws { append(String(value)) }
    mutating func encode(_ value: Int16) throws { append(String(value)) }
    mutating func encode(_ value: Int32) throws { append(String(value)) }
    mutating func encode(_ value: Int64) throws { append(String(value)) }
    mutating func encode(_ value: UInt) throws { append(String(value)) }
    mutating func encode(_ value: UInt8) throws { append(String(value)) }
    mutating func encode(_ value: UInt16) throws { append(String(value)) }
    mutating func encode(_ value: UInt32) throws { append(String(value)) }
    mutating func encode(_ value: UInt64) throws { append(String(value)) }

    mutating func encode<T: Encodable>(_ value: T) throws {
        try OrderedJSONNodeEncoder.encode(value, into: node.appendChild(), codingPath: codingPath)
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type) -> KeyedEncodingContainer<NestedKey> {
        let child = node.appendChild()
        child.becomeObject()
        return KeyedEncodingContainer(KeyedContainer<NestedKey>(node: child, codingPath: codingPath))
    }

    mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
        let child = node.appendChild()
        child.becomeArray()
        return UnkeyedContainer(node: child, codingPath: codingPath)
    }

    mutating func superEncoder() -> any Encoder {
        OrderedJSONNodeEncoder(node: node.appendChild(), codingPath: codingPath)
    }
}

/// A single-value container writing into a node.
private struct SingleValueContainer: SingleValueEncodingContainer {
    let node: OrderedJSONNode
    let codingPath: [any CodingKey]

    private func set(_ literal: String) { node.content = .literal(literal) }

    mutating func encodeNil() throws { set("null") }
    mutating func encode(_ value: Bool) throws { set(value ? "true" : "false") }
    mutating func encode(_ value: String) throws { set(JSONString.quoted(value)) }
    mutating func encode(_ value: Double) throws { set(try OrderedJSONNodeEncoder.literal(value, codingPath)) }
    mutating func encode(_ value: Float) throws { set(try OrderedJSONNodeEncoder.literal(value, codingPath)) }
    mutating func encode(_ value: Int) throws { set(String(value)) }
    mutating func encode(_ value: Int8) throws { set(String(value)) }
    mutating func encode(_ value: Int16) throws { set(String(value)) }
    mutating func encode(_ value: Int32) throws { set(String(value)) }
    mutating func encode(_ value: Int64) throws { set(String(value)) }
    mutating func encode(_ value: UInt) throws { set(String(value)) }
    mutating func encode(_ value: UInt8) throws { set(String(value)) }
    mutating func encode(_ value: UInt16) throws { set(String(value)) }
    mutating func encode(_ value: UInt32) throws { set(String(value)) }
    mutating func encode(_ value: UInt64) throws { set(String(value)) }

    mutating func encode<T: Encodable>(_ value: T) throws {
        try OrderedJSONNodeEncoder.encode(value, into: node, codingPath: codingPath)
    }
}
