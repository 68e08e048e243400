extension JSONString {
    /// A JSON object of string members in the order given: `{"type":"OnOff","value":"ON"}`.
    ///
    /// For payloads whose key order a wire format fixes (openHAB's event payloads); both keys
    /// and values are escaped as ``append(_:to:)`` escapes them.
    public static func object(_ members: [(key: String, value: String)]) -> String {
        var out = "{"
        for (index, member) in members.enumerated() {
            if index > 0 { out += "," }
            append(member.key, to: &out)
            out += ":"
            append(member.value, to: &out)
        }
        out += "}"
        return out
    }
}
