import ScenarioFormat
import Simulation

extension JSONNode {
    /// The node as JSON text, two-space indented, object members in order; numbers keep their source
    /// text. Parsing the text gives the same values back.
    var jsonText: String {
        var out = ""
        write(to: &out, indent: "")
        return out + "\n"
    }

    private func write(to out: inout String, indent: String) {
        switch value {
        case .null: out += "null"
        case .bool(let b): out += b ? "true" : "false"
        case .number(_, let text): out += text
        case .string(let s): JSONString.append(s, to: &out)
        case .array(let elements):
            guard !elements.isEmpty else { out += "[]"; return }
            let inner = indent + "  "
            out += "[\n"
            for (index, element) in elements.enumerated() {
                out += inner
                element.write(to: &out, indent: inner)
                out += index == elements.count - 1 ? "\n" : ",\n"
            }
            out += indent + "]"
        case .object(let members):
            guard !members.isEmpty else { out += "{}"; return }
            let inner = indent + "  "
            out += "{\n"
            for (index, member) in members.enumerated() {
                out += inner
                JSONString.append(member.key, to: &out)
                out += ": "
                member.value.write(to: &out, indent: inner)
                out += index == members.count - 1 ? "\n" : ",\n"
            }
            out += indent + "}"
        }
    }
}
