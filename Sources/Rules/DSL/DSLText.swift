import Foundation

/// `String` methods (Java's, with Java regular expressions where Java takes one) and `String::format`.
enum DSLText {
    private static func string(_ r: DSLValue) -> String { if case .string(let s) = r { s } else { r.text } }
    private static func arg(_ a: [DSLValue], _ k: Int, _ name: String, _ at: DSLLocation) throws(DSLFlow) -> String {
        guard k < a.count else { throw DSLFlow.failure("\(name) takes \(k + 1) argument(s)", at, type: "IllegalArgumentException") }
        if case .null = a[k] { throw DSLFlow.failure("\(name) with null", at, type: "NullPointerException") }
        return a[k].text
    }
    private static func int(_ a: [DSLValue], _ k: Int, _ name: String, _ at: DSLLocation) throws(DSLFlow) -> Int {
        guard k < a.count, let n = a[k].numeric else { throw DSLFlow.failure("\(name) takes a number", at, type: "IllegalArgumentException") }
        return Int(clamping: Int64(saturating: n.value))
    }

    static func regex(_ pattern: String, _ at: DSLLocation) throws(DSLFlow) -> NSRegularExpression {
        do { return try NSRegularExpression(pattern: pattern) } catch {
            throw DSLFlow.failure("\(pattern) is not a regular expression", at, type: "PatternSyntaxException")
        }
    }

    /// Java's `String.split(regex)`: trailing empty strings removed.
    static func split(_ s: String, _ pattern: String, _ at: DSLLocation) throws(DSLFlow) -> [String] {
        let re = try regex(pattern, at)
        let ns = s as NSString
        var parts: [String] = []
        var start = 0
        for m in re.matches(in: s, range: NSRange(location: 0, length: ns.length)) {
            if m.range.length == 0, m.range.location == 0 || m.range.location >= ns.length { continue }
            parts.append(ns.substring(with: NSRange(location: start, length: m.range.location - start)))
            start = m.range.location + m.range.length
        }
        parts.append(ns.substring(from: start))
        while parts.count > 1, parts.last == "" { parts.removeLast() }
        return parts
    }

    static let stringMethods: [String: DSLMethodCode] = [
        "length": .init { _, r, _, _ in .int(Int64((string(r) as NSString).length)) },
        "isEmpty": .init { _, r, _, _ in .bool(string(r).isEmpty) },
        "isBlank": .init { _, r, _, _ in .bool(string(r).trimmingCharacters(in: .whitespacesAndNewlines).isEmpty) },
        "contains": .init { _, r, a, at in .bool(string(r).contains(try arg(a, 0, "contains", at))) },
        "startsWith": .init { _, r, a, at in .bool(string(r).hasPrefix(try arg(a, 0, "startsWith", at))) },
        "endsWith": .init { _, r, a, at in .bool(string(r).hasSuffix(try arg(a, 0, "endsWith", at))) },
        "equalsIgnoreCase": .init { _, r, a, _ in .bool(a.count == 1 && string(r).lowercased() == a[0].text.lowercased()) },
        "indexOf": .init { _, r, a, at in
            let ns = string(r) as NSString
            let range = ns.range(of: try arg(a, 0, "indexOf", at))
            return .int(range.location == NSNotFound ? -1 : Int64(range.location))
        },
        "lastIndexOf": .init { _, r, a, at in
            let ns = string(r) as NSString
            let range = ns.range(of: try arg(a, 0, "lastIndexOf", at), options: .backwards)
            return .int(range.location == NSNotFound ? -1 : Int64(range.location))
        },
        "substring": .init { _, r, a, at in
            let ns = string(r) as NSString
            let from = try int(a, 0, "substring", at)
            let to = a.count > 1 ? try int(a, 1, "substring", at) : ns.length
            guard from >= 0, to <= ns.length, from <= to else {
                throw DSLFlow.failure("begin \(from), end \(to), length \(ns.length)", at, type: "StringIndexOutOfBoundsException")
            }
            return .string(ns.substring(with: NSRange(location: from, length: to - from)))
        },
        "charAt": .init { _, r, a, at in
            let ns = string(r) as NSString
            let k = try int(a, 0, "charAt", at)
            guard k >= 0, k < ns.length else { throw DSLFlow.failure("index \(k), length \(ns.length)", at, type: "StringIndexOutOfBoundsException") }
            return .string(ns.substring(with: NSRange(location: k, length: 1)))
        },
        "split": .init { _, r, a, at in .list(DSLList(try split(string(r), try arg(a, 0, "split", at), at).map(DSLValue.string))) },
        "replace": .init { _, r, a, at in
            try DSLOperators.checkedString(string(r).replacingOccurrences(of: try arg(a, 0, "replace", at), with: try arg(a, 1, "replace", at)), at)
        },
        "replaceAll": .init { _, r, a, at in
            let s = string(r)
            let re = try regex(try arg(a, 0, "replaceAll", at), at)
            return try DSLOperators.checkedString(re.stringByReplacingMatches(in: s, range: NSRange(location: 0, length: (s as NSString).length),
                                                                              withTemplate: try arg(a, 1, "replaceAll", at)), at)
        },
        "replaceFirst": .init { _, r, a, at in
            let s = string(r)
            let re = try regex(try arg(a, 0, "replaceFirst", at), at)
            guard let m = re.firstMatch(in: s, range: NSRange(location: 0, length: (s as NSString).length)) else { return .string(s) }
            let replacement = re.replacementString(for: m, in: s, offset: 0, template: try arg(a, 1, "replaceFirst", at))
            return .string((s as NSString).replacingCharacters(in: m.range, with: replacement))
        },
        "matches": .init { _, r, a, at in
            let s = string(r)
            let re = try regex("^(?:" + (try arg(a, 0, "matches", at)) + ")$", at)
            return .bool(re.firstMatch(in: s, range: NSRange(location: 0, length: (s as NSString).length)) != nil)
        },
        "toUpperCase": .init { _, r, _, _ in .string(string(r).uppercased()) },
        "toLowerCase": .init { _, r, _, _ in .string(string(r).lowercased()) },
        "trim": .init { _, r, _, _ in .string(string(r).trimmingCharacters(in: .whitespacesAndNewlines)) },
        "strip": .init { _, r, _, _ in .string(string(r).trimmingCharacters(in: .whitespacesAndNewlines)) },
        "concat": .init { _, r, a, at in try DSLOperators.checkedString(string(r) + (try arg(a, 0, "concat", at)), at) },
        "toCharArray": .init { _, r, _, _ in .list(DSLList(string(r).map { .string(String($0)) })) },
        "repeat": .init { _, r, a, at in
            let n = try int(a, 0, "repeat", at)
            let s = string(r)
            guard n >= 0, s.utf8.count.multipliedReportingOverflow(by: n).overflow == false,
                  s.utf8.count * n <= DSLLimits.maxStringLength else {
                throw DSLFlow.fatal("a string grew past \(DSLLimits.maxStringLength) bytes; the run was ended (rules.dslValueTooLarge)", at)
            }
            return .string(String(repeating: s, count: n))
        },
    ]

    /// `String::format` / `String.format` with Java's `%s %d %f %.1f %5.2f %x %%  %n %b`.
    static func format(_ a: [DSLValue], _ at: DSLLocation, _ i: DSLInterpreter?) throws(DSLFlow) -> DSLValue {
        // `String.format(Locale, pattern, args…)`: the locale's day and month names and number symbols.
        var a = a[...]
        var locale = DSLDateFormat.english
        if case .constant("Locale", let name)? = a.first {
            guard let names = DSLDateFormat.locales[name] else {
                throw DSLFlow.failure("Locale.\(name) is not a locale the twin formats with (it knows \(DSLDateFormat.locales.keys.sorted().joined(separator: ", ")))", at, type: "IllegalArgumentException")
            }
            locale = names
            a = a.dropFirst()
        }
        guard case .string(let pattern)? = a.first else { throw DSLFlow.failure("String.format takes a pattern first", at, type: "IllegalArgumentException") }
        var out = ""
        let args = Array(a.dropFirst())
        var ordinary = 0
        var previous: DSLValue?
        var chars = Array(pattern)[...]
        func describe(_ v: DSLValue) -> String { i?.describe(v) ?? v.text }
        while let c = chars.popFirst() {
            guard c == "%" else { out.append(c); continue }
            // java.util.Formatter: %[argument_index$][flags][width][.precision]conversion; `<` reuses the previous argument.
            var explicit: Int?
            var reuse = false
            if chars.first == "<" {
                reuse = true
                chars.removeFirst()
            } else if let dollar = chars.prefix(6).firstIndex(of: "$"), dollar > chars.startIndex,
                      chars[chars.startIndex..<dollar].allSatisfy(\.isNumber), chars.first != "0" {
                explicit = Int(String(chars[chars.startIndex..<dollar]))
                chars = chars[chars.index(after: dollar)...]
            }
            var spec = ""
            while let n = chars.first, "-+ 0#,.0123456789".contains(n) { spec.append(n); chars.removeFirst() }
            guard let conversion = chars.popFirst() else { throw DSLFlow.failure("the format ends inside a %", at, type: "UnknownFormatConversionException") }
            if conversion == "%" { out.append("%"); continue }
            // A width or precision past 1000 is refused (a format must not build a huge string).
            if spec.split(whereSeparator: { !$0.isNumber }).contains(where: { $0.count > 4 || (Int($0) ?? 0) > 1_000 }) {
                throw DSLFlow.failure("the width or precision of %\(spec)\(conversion) is larger than 1000", at, type: "IllegalFormatWidthException")
            }
            if conversion == "n" { out.append("\n"); continue }
            let value: DSLValue
            if reuse {
                guard let previous else { throw DSLFlow.failure("Format specifier '%<\(spec)\(conversion)' has no previous argument", at, type: "MissingFormatArgumentException") }
                value = previous
            } else if let explicit {
                guard explicit >= 1, explicit <= args.count else { throw DSLFlow.failure("Format specifier '%\(explicit)$\(spec)\(conversion)' has no argument", at, type: "MissingFormatArgumentException") }
                value = args[explicit - 1]
            } else {
                guard ordinary < args.count else { throw DSLFlow.failure("Format specifier '%\(spec)\(conversion)' has no argument", at, type: "MissingFormatArgumentException") }
                value = args[ordinary]
                ordinary += 1
            }
            previous = value
            let grouping = spec.contains(",")
            let cspec = spec.replacingOccurrences(of: ",", with: "")
            switch conversion {
            case "t", "T":
                guard let suffix = chars.popFirst() else { throw DSLFlow.failure("%\(conversion) needs a date/time conversion after it (%tH, %td, %tA…)", at, type: "UnknownFormatConversionException") }
                out += try DSLDateFormat.text(suffix, upper: conversion == "T", value, names: locale, at, i)
            case "s", "S":
                var text = describe(value)
                if let dot = cspec.firstIndex(of: "."), let p = Int(cspec[cspec.index(after: dot)...]) { text = String(text.prefix(p)) }
                let widthText = cspec.split(separator: ".").first.map(String.init) ?? ""
                let left = widthText.hasPrefix("-")
                if let width = Int(widthText.filter(\.isNumber)), width > text.count {
                    let pad = String(repeating: " ", count: width - text.count)
                    text = left ? text + pad : pad + text
                }
                out += conversion == "S" ? text.uppercased() : text
            case "d":
                guard let n = value.numeric else { throw DSLFlow.failure("%d can't format \(value.kindName)", at, type: "IllegalFormatConversionException") }
                if case .number = value { throw DSLFlow.failure("d != java.lang.Double (%d takes an integer: use intValue)", at, type: "IllegalFormatConversionException") }
                if case .decimal = value { throw DSLFlow.failure("d != java.math.BigDecimal (%d takes an integer: use intValue)", at, type: "IllegalFormatConversionException") }
                var text = String(format: "%\(cspec)lld", Int64(saturating: n.value))
                if grouping { text = group(text) }
                out += locale.localized(text)
            case "f", "e", "E", "g":
                guard let n = value.numeric else { throw DSLFlow.failure("%\(conversion) can't format \(value.kindName)", at, type: "IllegalFormatConversionException") }
                if case .int = value { throw DSLFlow.failure("%\(conversion) can't format an int (java.lang.Integer)", at, type: "IllegalFormatConversionException") }
                var text: String
                if conversion == "f" {
                    // A double formats from its shortest digits; a BigDecimal (or a DecimalType, which Java's
                    // Formatter refuses and the twin takes as its BigDecimal) from its exact digits.
                    if case .number = value {
                        text = javaFixed(n.value, spec: cspec)
                    } else {
                        text = javaFixed(n.value, spec: cspec, exact: value.javaDecimal)
                    }
                } else {
                    text = String(format: "%\(cspec)\(conversion)", n.value)
                }
                if grouping { text = group(text) }
                out += locale.localized(text)
            case "x", "X":
                guard case .int(let n) = value else { throw DSLFlow.failure("%x needs an integer", at, type: "IllegalFormatConversionException") }
                out += String(format: "%\(cspec)ll\(conversion)", n)
            case "b", "B":
                if case .bool(let b) = value { out += b ? "true" : "false" } else if case .null = value { out += "false" } else { out += "true" }
            default:
                throw DSLFlow.failure("Conversion = '\(conversion)'", at, type: "UnknownFormatConversionException")
            }
        }
        return try DSLOperators.checkedString(out, at)
    }

    /// The digits of `%.<precision>f` before width and flags. Java's Formatter starts from the shortest
    /// decimal that reads back as the double (`Double.toString`'s digits, which Swift's description also
    /// gives), pads with zeros and rounds HALF_UP (`java.util.Formatter`, `sun.misc.FormattedFloatingDecimal`).
    /// Foundation's `Decimal` holds only exponents -128…127, so a number past that (a 300-digit Item state)
    /// is written out from its digits here; `NaN` and `Infinity` print as Java prints them.
    static func fixedDigits(_ value: Double, precision: Int) -> String {
        if value.isNaN { return "NaN" }
        if value.isInfinite { return value < 0 ? "-Infinity" : "Infinity" }
        let negative = value.sign == .minus
        let magnitude = Swift.abs(value)
        if magnitude >= 1e17 {
            // Every digit of the shortest form is left of the point: digits, zeros, then the decimals.
            let description = "\(magnitude)"   // "1.6161616161616162e+305" or "1e+20"
            let parts = description.split(separator: "e")
            let mantissa = parts[0].replacingOccurrences(of: ".", with: "")
            let exponent = parts.count > 1 ? Int(parts[1]) ?? 0 : mantissa.count - 1
            let digits = mantissa.count > exponent + 1 ? String(mantissa.prefix(exponent + 1))
                : mantissa + String(repeating: "0", count: exponent + 1 - mantissa.count)
            return (negative ? "-" : "") + digits + (precision > 0 ? "." + String(repeating: "0", count: precision) : "")
        }
        if magnitude < 1e-100 {
            // Rounds to zero at any precision we allow (30); Java keeps the sign of a negative value.
            return (negative ? "-" : "") + "0" + (precision > 0 ? "." + String(repeating: "0", count: precision) : "")
        }
        var decimal = Decimal(string: "\(value)") ?? Decimal(value)
        var rounded = Decimal()
        NSDecimalRound(&rounded, &decimal, precision, .plain)
        return NSDecimalNumber(decimal: rounded).stringValue
    }

    /// `%f` as Java's Formatter: the decimal value of the number, rounded HALF_UP (`%.1f` of 2.25 is 2.3;
    /// C's printf gives 2.2), then width and flags.
    static func javaFixed(_ value: Double, spec: String, exact: JavaDecimal? = nil) -> String {
        var precision = 6
        var flags = spec
        if let dot = spec.firstIndex(of: ".") {
            precision = Int(spec[spec.index(after: dot)...]) ?? 6
            flags = String(spec[..<dot])
        }
        precision = min(precision, 30)
        var text = fixedDigits(value, precision: precision)
        // `Formatter` with a BigDecimal: `setScale(precision, HALF_UP)` of the exact value, the sign of the value.
        if let exact, case .value(let rounded) = exact.setScale(precision, .halfUp) {
            let magnitude = rounded.isNegative ? rounded.negated() : rounded
            text = (exact.isNegative ? "-" : "") + magnitude.plainString
        }
        if precision > 0, value.isFinite {
            if !text.contains(".") { text += "." }
            let decimals = text.count - (text.firstIndex(of: ".").map { text.distance(from: text.startIndex, to: $0) } ?? text.count) - 1
            if decimals < precision { text += String(repeating: "0", count: precision - decimals) }
        }
        if flags.contains("+"), !text.hasPrefix("-") { text = "+" + text }
        let width = Int(flags.filter(\.isNumber).drop { $0 == "0" }) ?? 0
        if text.count < width {
            let pad = width - text.count
            if flags.contains("-") { text += String(repeating: " ", count: pad) }
            else if flags.hasPrefix("0") || flags.contains("0") && flags.first == "0" {
                let negative = text.hasPrefix("-")
                text = (negative ? "-" : "") + String(repeating: "0", count: pad) + (negative ? String(text.dropFirst()) : text)
            } else { text = String(repeating: " ", count: pad) + text }
        }
        return text
    }

    private static func group(_ text: String) -> String {
        let negative = text.hasPrefix("-")
        let body = negative ? String(text.dropFirst()) : text
        let parts = body.split(separator: ".", maxSplits: 1)
        let integer = Array(parts[0].trimmingCharacters(in: .whitespaces))
        var grouped = ""
        for (k, ch) in integer.enumerated() {
            if k > 0, (integer.count - k) % 3 == 0 { grouped.append(",") }
            grouped.append(ch)
        }
        return (negative ? "-" : "") + grouped + (parts.count > 1 ? "." + parts[1] : "")
    }
}
