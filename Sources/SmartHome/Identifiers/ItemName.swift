/// An Item's name: `[a-zA-Z_][a-zA-Z0-9_]*`, e.g. `flat_1_heating_setpoint`.
public struct ItemName: Hashable, Comparable, Sendable, CustomStringConvertible {
    /// The name text.
    public let rawValue: String
    /// The text's hash, for dictionaries keyed by Item name.
    private let textHash: TextHash

    /// Validates an Item name.
    /// - Throws: ``SmartHomeError`` `item.nameInvalid`, saying which character is wrong.
    public init(_ text: String) throws(SmartHomeError) {
        guard let first = text.unicodeScalars.first else {
            throw SmartHomeError(.invalidItemName, "An Item name cannot be empty; use letters, digits and \"_\", e.g. \"flat_1_heating_switch\".")
        }
        guard Self.isLetterOrUnderscore(first) else {
            throw SmartHomeError(.invalidItemName,
                                 "Item name \"\(text)\" starts with \"\(first)\"; it must start with a letter or \"_\".")
        }
        if let bad = text.unicodeScalars.first(where: { !Self.isLetterOrUnderscore($0) && !("0"..."9").contains($0) }) {
            throw SmartHomeError(.invalidItemName,
                                 "Item name \"\(text)\" contains \"\(bad)\"; only letters, digits and \"_\" are allowed (openHAB's [a-zA-Z_][a-zA-Z0-9_]*).")
        }
        rawValue = text
        textHash = TextHash(text)
    }

    /// The Item name for a scenario path such as `flat-1/heating/setpoint`: every character
    /// outside `[A-Za-z0-9_]` becomes `_` (a leading digit gets a `_` in front).
    /// - Throws: ``SmartHomeError`` `item.nameInvalid` for an empty path.
    public init(path: String) throws(SmartHomeError) {
        var scalars = String.UnicodeScalarView()
        for s in path.unicodeScalars {
            scalars.append(Self.isLetterOrUnderscore(s) || ("0"..."9").contains(s) ? s : "_")
        }
        var text = String(scalars)
        if let first = text.unicodeScalars.first, ("0"..."9").contains(first) { text = "_" + text }
        try self.init(text)
    }

    private static func isLetterOrUnderscore(_ s: Unicode.Scalar) -> Bool {
        ("a"..."z").contains(s) || ("A"..."Z").contains(s) || s == "_"
    }

    public static func < (lhs: ItemName, rhs: ItemName) -> Bool { lhs.rawValue < rhs.rawValue }
    public static func == (lhs: ItemName, rhs: ItemName) -> Bool { lhs.textHash == rhs.textHash && lhs.rawValue == rhs.rawValue }
    public func hash(into hasher: inout Hasher) { hasher.combine(textHash.value) }
    /// The bucket word for hashed collections: the stored text hash through one finaliser, no `Hasher`.
    public func _rawHashValue(seed: Int) -> Int { textHash.bucketHash(seed: seed) }
    public var description: String { rawValue }
}
