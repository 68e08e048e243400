import Simulation

/// Reads the members of a JSON object by key, remembering which keys were read so that every
/// other key can be reported as unknown with a "did you mean" hint.
final class ObjectReader {
    let field: Field
    private let members: [JSONNode.Member]
    private let allowed: [String]

    /// Fails (after reporting) when the field is not an object. Unknown keys are reported at once.
    init?(_ field: Field, allowed: [String]) {
        guard case .object(let members) = field.node.value else {
            field.problem("expected an object, found \(field.node.kindDescription).")
            return nil
        }
        self.field = field
        self.members = members
        self.allowed = allowed
        for member in members where !allowed.contains(member.key) {
            let hint = Suggestion.closest(to: member.key, in: allowed).map { "did you mean \"\($0)\"?" }
                ?? "allowed keys here: \(allowed.joined(separator: ", "))."
            field.issues.add(childPath(member.key), line: member.keyLine, "unknown key \(UserText.quoted(member.key)).", hint: hint)
        }
    }

    var path: String { field.path }
    var line: Int { field.line }
    var keys: [String] { members.map(\.key) }

    func childPath(_ key: String) -> String { path.isEmpty ? key : "\(path).\(key)" }

    /// The member `key`, or nil (reporting it when `required`).
    func value(_ key: String, required: Bool = false) -> Field? {
        guard let member = members.first(where: { $0.key == key }) else {
            if required { field.problem("is missing the required key \"\(key)\".") }
            return nil
        }
        return Field(node: member.value, path: childPath(key), issues: field.issues)
    }

    /// The member `key`, or nil when it is absent. A `null` is reported (a key written with `null` must
    /// never silently mean "absent": a typo would disable what it configures) and gives nil too.
    func optional(_ key: String) -> Field? {
        guard let value = value(key) else { return nil }
        guard !value.isNull else {
            value.problem("is null; null is not a value here.", hint: "leave \"\(key)\" out for its default, or give a value.")
            return nil
        }
        return value
    }

    func required(_ key: String) -> Field? { value(key, required: true) }
}
