import ScenarioFormat
/// What the mutator splices in: every key, string, number text and subtree of the seed scenarios,
/// plus values known to be hostile (extremes, NaN-like text, control characters, edge dates).
struct FuzzDictionary: Sendable {
    /// Object keys seen in the corpus, sorted.
    let keys: [String]
    /// String values seen in the corpus (ids, cities, dates, items), sorted.
    let strings: [String]
    /// Date-time strings seen in the corpus, sorted.
    let instants: [String]
    /// Subtrees of the corpus (not the roots), in walk order.
    let nodes: [JSONNode]

    /// Number texts at the edges of what JSON and `Double` can say.
    static let extremeNumbers = [
        "0", "-0", "1", "-1", "0.1", "1e-9", "-1e-9", "1e-12", "1e-300", "5e-324", "1e9", "-1e9", "1e15", "1e300", "-1e300",
        "1.7976931348623157e308", "-1.7976931348623157e308", "2147483648", "9223372036854775807", "-9223372036854775808",
        "18446744073709551615", "18446744073709551616", "1e999", "123456789012345678901234567890",
    ]
    /// Strings that look like numbers no JSON number can be.
    static let nonFiniteTexts = ["NaN", "nan", "Infinity", "-Infinity", "inf", "-inf", "1e999", "0x10", ""]
    /// Strings with characters that should never reach a terminal or a CSV file raw.
    static let hostileStrings = [
        "", " ", "\u{1B}[2J\u{1B}[31mred", "a\u{0}b", "line\nbreak", "tab\there", "quote\"comma,", "Siófok", "東京", "🏠",
        "Testville", "../../etc/passwd", "flat-1/heating/switch", "ON", "OFF", "NULL", "UNDEF", "21 °C", "-0 °C",
    ]
    /// Durations at the edges.
    static let durations = ["PT0S", "PT0M", "P0D", "PT1S", "PT1M", "PT0.5S", "-PT1H", "P1Y", "P3650D", "PT99999999H", "P", "PT"]
    /// Edge values for each part of a local date-time.
    static let years = ["0026", "1900", "1970", "2025", "2026", "2027", "2100", "9999"]
    static let months = ["00", "01", "02", "03", "10", "12", "13"]
    static let days = ["00", "01", "28", "29", "30", "31", "32"]
    static let hours = ["00", "02", "03", "12", "23", "24"]
    static let minutes = ["00", "30", "59", "60"]

    /// Collects the dictionary of `roots`.
    init(roots: [JSONNode]) {
        var keys: Set<String> = [], strings: Set<String> = [], instants: Set<String> = []
        var nodes: [JSONNode] = []
        func walk(_ node: JSONNode, isRoot: Bool) {
            if !isRoot { nodes.append(node) }
            switch node.value {
            case .string(let s):
                strings.insert(s)
                if Self.looksLikeInstant(s) { instants.insert(s) }
            case .array(let elements): for element in elements { walk(element, isRoot: false) }
            case .object(let members):
                for member in members {
                    keys.insert(member.key)
                    walk(member.value, isRoot: false)
                }
            default: break
            }
        }
        for root in roots { walk(root, isRoot: true) }
        self.keys = keys.sorted()
        self.strings = strings.sorted()
        self.instants = instants.sorted()
        self.nodes = nodes
    }

    /// `YYYY-MM-DDTHH:MM…`.
    static func looksLikeInstant(_ s: String) -> Bool {
        let u = Array(s.utf8)
        return u.count >= 16 && u[4] == UInt8(ascii: "-") && u[7] == UInt8(ascii: "-") && u[10] == UInt8(ascii: "T") && u[13] == UInt8(ascii: ":")
    }
}
