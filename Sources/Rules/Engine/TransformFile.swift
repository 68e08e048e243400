/// A transformation file as openHAB reads it from `$OPENHAB_CONF/transform/<name>`: a `.map` file
/// (openhab-addons `MapTransformationService`) or a `.scale` file (`ScaleTransformationService`). Both are
/// `java.util.Properties` texts; ``TransformFile/parse(_:name:)`` reads them as `Properties.load` does and
/// reports what openHAB would not load, located.
public struct TransformFile: Sendable, Hashable {
    public enum Kind: String, Sendable, CaseIterable {
        case map = "MAP"
        case scale = "SCALE"

        /// The file extension openHAB gives the type (`.map`, `.scale`).
        public var fileExtension: String { self == .map ? "map" : "scale" }
    }

    /// A `.scale` range: `[low..high]`, `]low..high[`; a missing bound is open-ended.
    public struct Range: Sendable, Hashable {
        public var low: Double?
        public var lowInclusive: Bool
        public var high: Double?
        public var highInclusive: Bool
        public var value: String

        /// openhab-addons `Range.contains`.
        func contains(_ x: Double) -> Bool {
            let aboveLow = low.map { lowInclusive ? x >= $0 : x > $0 } ?? true
            let belowHigh = high.map { highInclusive ? x <= $0 : x < $0 } ?? true
            return aboveLow && belowHigh
        }
    }

    /// The name rules use: the file name (`en.map`).
    public var name: String
    public var kind: Kind
    /// `.map`: key → value (the last of a key given twice, as `Properties`).
    public var entries: [String: String] = [:]
    /// `.scale`: the ranges in file order, the `NaN` entry and the `format` entry (`%label%` by default).
    public var ranges: [Range] = []
    public var nonNumeric: String?
    public var format = "%label%"

    /// A problem of a transformation file: a stable code, where, what, and a hint.
    public struct Issue: Sendable, Hashable {
        public enum Code: String, Sendable {
            /// A `\uXXXX` escape that is not four hex digits (`Properties.load` throws).
            case badEscape = "transform.badEscape"
            /// A `.scale` key that is neither a range, `NaN` nor `format` (openHAB ignores it with a warning).
            case badEntry = "transform.badEntry"
            /// A `.scale` bound that is not a number (openHAB then loads nothing of the file).
            case badNumber = "transform.badNumber"
        }

        public var code: Code
        public var line: Int
        public var message: String
        public var hint: String?
    }

    /// The kind a file name asks for (`.map`, `.scale`), or `nil`.
    public static func kind(ofFileNamed name: String) -> Kind? {
        let lower = name.lowercased()
        return Kind.allCases.first { lower.hasSuffix("." + $0.fileExtension) }
    }

    /// Reads `text` as the file `name` (its extension gives the kind).
    public static func parse(_ text: String, name: String) -> (file: TransformFile?, issues: [Issue]) {
        guard let kind = kind(ofFileNamed: name) else {
            return (nil, [Issue(code: .badEntry, line: 1, message: "\(name) is neither a .map nor a .scale file.",
                                hint: "the twin reads MAP (.map) and SCALE (.scale) transformation files.")])
        }
        var file = TransformFile(name: name, kind: kind)
        var issues: [Issue] = []
        for (line, key, value, problem) in properties(text) {
            if let problem {
                issues.append(Issue(code: .badEscape, line: line, message: problem,
                                    hint: "write \\u and four hex digits (\\u00B0), or \\\\u for a backslash and u."))
                continue
            }
            switch kind {
            case .map:
                file.entries[key] = value
            case .scale:
                if let range = scaleRange(key, value) {
                    switch range {
                    case .success(let r): file.ranges.append(r)
                    case .failure(let bad):
                        issues.append(Issue(code: .badNumber, line: line, message: "\(bad.text) in the range \(key) is not a number.",
                                            hint: "write bounds as numbers, such as [0..10] or ]-5.5..0[; leave a side empty for no bound: [..0]."))
                    }
                } else if key == "NaN" {
                    file.nonNumeric = value
                } else if key == "format" {
                    file.format = value
                } else {
                    issues.append(Issue(code: .badEntry, line: line,
                                        message: "\"\(key.prefix(80))\" is not a scale range, the entry for text that is no number, or format; openHAB ignores it with a warning.",
                                        hint: "write [low..high]=text with [ or ] for closed bounds and ] or [ for open ones, or format=%label% (%value%); RULES.md names the entry for text that is no number."))
                }
            }
        }
        // A scale range given twice keeps its first place and its last value (Scale's OrderedProperties).
        if kind == .scale {
            var seen: [Range: Int] = [:]
            var kept: [Range] = []
            for r in file.ranges {
                var bounds = r
                bounds.value = ""
                if let at = seen[bounds] { kept[at].value = r.value } else { seen[bounds] = kept.count; kept.append(r) }
            }
            file.ranges = kept
        }
        // An entry openHAB ignores with a warning (badEntry) leaves the rest of the file loaded, as in openHAB.
        return (issues.allSatisfy { $0.code == .badEntry } ? file : nil, issues)
    }

    private struct BadNumber: Error { var text: String }

    /// `(\[|])(.*)\.\.(.*)(\[|])` (greedy, as Java's `Matcher.matches`): `nil` when the key is no range.
    private static func scaleRange(_ key: String, _ value: String) -> Result<Range, BadNumber>? {
        let chars = Array(key)
        guard chars.count >= 4, let first = chars.first, let last = chars.last, first == "[" || first == "]", last == "[" || last == "]" else { return nil }
        let inner = Array(chars[1..<(chars.count - 1)])
        // The greedy first group ends at the last ".." of the inner text.
        var split: Int?
        var i = inner.count - 2
        while i >= 0 {
            if inner[i] == ".", inner[i + 1] == "." { split = i; break }
            i -= 1
        }
        guard let split else { return nil }
        let lowText = String(inner[..<split]), highText = String(inner[(split + 2)...])
        var low: Double?, high: Double?
        if !lowText.isEmpty {
            guard let v = javaBigDecimal(lowText) else { return .failure(BadNumber(text: lowText)) }
            low = v
        }
        if !highText.isEmpty {
            guard let v = javaBigDecimal(highText) else { return .failure(BadNumber(text: highText)) }
            high = v
        }
        return .success(Range(low: low, lowInclusive: first == "[", high: high, highInclusive: last == "]", value: value))
    }

    /// `new BigDecimal(text)`: an optional sign, digits with at most one point (at least one digit), an
    /// optional exponent; no blanks. `nil` where Java throws `NumberFormatException`.
    static func javaBigDecimal(_ text: String) -> Double? {
        let u = Array(text.utf8)
        var i = 0
        if i < u.count, u[i] == 0x2B || u[i] == 0x2D { i += 1 }
        var digits = 0, points = 0
        while i < u.count, (u[i] >= 0x30 && u[i] <= 0x39) || u[i] == 0x2E {
            if u[i] == 0x2E { points += 1 } else { digits += 1 }
            i += 1
        }
        guard digits > 0, points <= 1 else { return nil }
        if i < u.count, u[i] == 0x65 || u[i] == 0x45 {
            i += 1
            if i < u.count, u[i] == 0x2B || u[i] == 0x2D { i += 1 }
            let start = i
            while i < u.count, u[i] >= 0x30 && u[i] <= 0x39 { i += 1 }
            guard i > start, i - start <= 9 else { return nil }
        }
        guard i == u.count else { return nil }
        return Double(text)
    }

    // MARK: Transforming

    /// What a transformation answers: its result (`nil` for Java's `null`), or the `TransformationException` text.
    public enum Outcome: Sendable, Hashable {
        case value(String?)
        case failure(String)
    }

    /// `MapTransformationService.transform`: the source's entry; else the `=default` entry (an empty key),
    /// where `_source_` gives the source back; else a failure.
    /// `ScaleTransformationService.transform`: the first range (in file order) holding the number, put into
    /// `format` (`%value%` the source, `%label%` the range's text); a source that is not a number or a
    /// quantity (`21 °C`) answers the `NaN` entry, or fails.
    public func transform(_ source: String) -> Outcome {
        switch kind {
        case .map:
            if let target = entries[source] { return .value(target) }
            guard let fallback = entries[""] else { return .failure("Target value not found in map for '\(source)'") }
            return .value(fallback == "_source_" ? source : fallback)
        case .scale:
            let number = Self.javaBigDecimal(source) ?? Self.quantityNumber(source)
            guard let number else {
                if let nonNumeric { return .value(nonNumeric) }
                return .failure("Scale must be used with numeric inputs, valid quantity types or a 'NaN' entry.")
            }
            guard let range = ranges.first(where: { $0.contains(number) }) else { return .failure("No matching range for '\(source)'") }
            return .value(format.replacingOccurrences(of: "%value%", with: source).replacingOccurrences(of: "%label%", with: range.value))
        }
    }

    /// The number of a QuantityType text (`21 °C`, `21.5°C`, `-3 kWh`): a number and a unit.
    static func quantityNumber(_ text: String) -> Double? {
        let u = Array(text.utf8)
        var end = 0
        if end < u.count, u[end] == 0x2D || u[end] == 0x2B { end += 1 }
        while end < u.count, (u[end] >= 0x30 && u[end] <= 0x39) || u[end] == 0x2E || u[end] == 0x45 || u[end] == 0x65 { end += 1 }
        let number = String(decoding: u[..<end], as: UTF8.self)
        let unit = String(decoding: u[end...], as: UTF8.self).trimmingBlanks()
        guard !unit.isEmpty, !unit.unicodeScalars.contains(where: { ("0"..."9").contains($0) && unit.unicodeScalars.first == $0 }) else { return nil }
        return javaBigDecimal(number)
    }

    // MARK: java.util.Properties

    /// The key/value pairs of a `Properties.load` text, with the line each starts on: natural lines end at
    /// LF, CR or CRLF; a line ending in an odd number of backslashes continues (the next line's leading
    /// blanks dropped); blank lines and lines whose first non-blank is `#` or `!` are skipped; the key ends
    /// at the first unescaped `=`, `:` or blank, then blanks, one `=` or `:` and blanks are skipped; escapes
    /// `\t \n \r \f \uXXXX`, and `\x` is `x`.
    static func properties(_ text: String) -> [(line: Int, key: String, value: String, problem: String?)] {
        let scalars = Array(text.unicodeScalars)
        var out: [(Int, String, String, String?)] = []
        var i = 0, line = 1
        func isBlank(_ c: Unicode.Scalar) -> Bool { c == " " || c == "\t" || c == "\u{0C}" }
        func isEnd(_ c: Unicode.Scalar) -> Bool { c == "\n" || c == "\r" }
        while i < scalars.count {
            // One logical line: its raw scalars (continuations joined), and the line it starts on.
            while i < scalars.count, isBlank(scalars[i]) { i += 1 }
            if i < scalars.count, isEnd(scalars[i]) {
                if scalars[i] == "\r", i + 1 < scalars.count, scalars[i + 1] == "\n" { i += 1 }
                i += 1; line += 1
                continue
            }
            guard i < scalars.count else { break }
            let startLine = line
            if scalars[i] == "#" || scalars[i] == "!" {
                while i < scalars.count, !isEnd(scalars[i]) { i += 1 }
                continue
            }
            var logical: [Unicode.Scalar] = []
            while i < scalars.count {
                let c = scalars[i]
                if isEnd(c) {
                    var backslashes = 0
                    var j = logical.count - 1
                    while j >= 0, logical[j] == "\\" { backslashes += 1; j -= 1 }
                    if c == "\r", i + 1 < scalars.count, scalars[i + 1] == "\n" { i += 1 }
                    i += 1; line += 1
                    if backslashes % 2 == 1 {
                        logical.removeLast()
                        while i < scalars.count, isBlank(scalars[i]) { i += 1 }
                        continue
                    }
                    break
                }
                logical.append(c)
                i += 1
            }
            // A continuation at the end of the text drops its backslash too.
            var trailing = 0
            var j = logical.count - 1
            while j >= 0, logical[j] == "\\" { trailing += 1; j -= 1 }
            if i >= scalars.count, trailing % 2 == 1 { logical.removeLast() }
            // Key and value.
            var k = 0
            var keyEnd = logical.count, valueStart = logical.count
            var escaped = false
            while k < logical.count {
                let c = logical[k]
                if escaped { escaped = false; k += 1; continue }
                if c == "\\" { escaped = true; k += 1; continue }
                if c == "=" || c == ":" { keyEnd = k; valueStart = k + 1; break }
                if isBlank(c) {
                    keyEnd = k
                    var v = k + 1
                    while v < logical.count, isBlank(logical[v]) { v += 1 }
                    if v < logical.count, logical[v] == "=" || logical[v] == ":" { v += 1 }
                    valueStart = v
                    break
                }
                k += 1
            }
            while valueStart < logical.count, isBlank(logical[valueStart]) { valueStart += 1 }
            let key = unescape(logical[0..<min(keyEnd, logical.count)])
            let value = unescape(logical[min(valueStart, logical.count)...])
            out.append((startLine, key.text, value.text, key.problem ?? value.problem))
        }
        return out
    }

    private static func unescape(_ raw: ArraySlice<Unicode.Scalar>) -> (text: String, problem: String?) {
        var s = String.UnicodeScalarView()
        var i = raw.startIndex
        while i < raw.endIndex {
            let c = raw[i]
            i += 1
            guard c == "\\", i < raw.endIndex else { s.append(c); continue }
            let e = raw[i]
            i += 1
            switch e {
            case "t": s.append("\t")
            case "n": s.append("\n")
            case "r": s.append("\r")
            case "f": s.append("\u{0C}")
            case "u":
                var value: UInt32 = 0
                var count = 0
                while count < 4, i < raw.endIndex, let d = UInt32(String(raw[i]), radix: 16) {
                    value = value * 16 + d
                    i += 1; count += 1
                }
                guard count == 4, let scalar = Unicode.Scalar(value) else {
                    return (String(s), "Malformed \\uxxxx encoding: \\u must be followed by four hex digits.")
                }
                s.append(scalar)
            default: s.append(e)
            }
        }
        return (String(s), nil)
    }
}

extension String {
    /// Without leading and trailing spaces and tabs.
    fileprivate func trimmingBlanks() -> String {
        let scalars = unicodeScalars
        guard let first = scalars.firstIndex(where: { $0 != " " && $0 != "\t" }),
              let last = scalars.lastIndex(where: { $0 != " " && $0 != "\t" }) else { return "" }
        return String(scalars[first...last])
    }
}
