import ScenarioFormat
/// Mutations of MAP and SCALE transformation files (`java.util.Properties` texts): lines dropped, repeated,
/// swapped or replaced; keys, values, range brackets and bounds, escapes and continuations changed.
enum TransformFileMutation {
    /// Lines that stress `Properties.load` and the MAP/SCALE readers.
    static let specialLines = [
        "[..]=everything", "]5..5[=empty range", "[a..b]=letters", "[1..2..3]=two dots twice", "[1...2]=three dots", "NaN=", "NaN",
        "format=%value% is %label%", "format=", "=_source_", "=", ":", " ", "\\u00", "\\uZZZZ=bad escape", "key\\", "continued=first \\",
        "# comment", "! comment", "[-1e9999..1e9999]=huge", "[0x10..20]=hex", "  [0..1]  =  spaced  ", "[0..1[=half open", "]..0]=no low",
        "ON=an", "OFF=aus", "NULL=-", "a\\=b=escaped", "key value", "key:value", "\u{0}=nul", "\u{FEFF}bom=x",
        String(repeating: "[", count: 2_000) + "..]=x", String(repeating: "k", count: 20_000) + "=long key",
        "x=" + String(repeating: "\\", count: 999),
    ]
    static let values = ["", "_source_", "%label%", "%value%", "\\u00B0C", "\\t\\n", "x\\", "[", "NaN", "1e309", "-0", "∞"]

    static func dictionary(_ texts: [String]) -> [String] {
        specialLines + texts.flatMap { $0.split(whereSeparator: \.isNewline).map(String.init) }
    }

    static func mutate(_ random: inout FuzzRandom, _ text: String, _ dictionary: [String]) -> String {
        LineMutation.mutateLines(&random, text, dictionary, whenEmpty: { random in random.element(dictionary) ?? "=x" }) { random, lines, i, choice, _ in
            switch choice {
            case 5:  // a value replaced
                if let equals = lines[i].firstIndex(where: { $0 == "=" || $0 == ":" }) {
                    lines[i] = String(lines[i][...equals]) + (random.element(values) ?? "")
                }
            case 6:  // a bracket flipped or a bound changed
                var chars = Array(lines[i])
                if let at = chars.indices.filter({ "[]".contains(chars[$0]) || chars[$0].isNumber || chars[$0] == "." }).randomElement(using: &random) {
                    chars[at] = random.element(Array("[].-09e ")) ?? chars[at]
                    lines[i] = String(chars)
                }
            default:  // cut anywhere (a continuation or a half escape at the end)
                let chars = Array(lines[i])
                if chars.count > 1 { lines[i] = String(chars[..<(1 + random.pick(chars.count - 1))]) + (random.chance(0.3) ? "\\" : "") }
            }
        }
    }
}

extension Array {
    /// A random element, chosen by the fuzz stream (not the system generator).
    fileprivate func randomElement(using random: inout FuzzRandom) -> Element? { random.element(self) }
}
