import Simulation

/// Reads the text of an openHAB cron expression into field matchers, with the same acceptance
/// as openHAB's `CronAdjuster` for everything a person would write.
///
/// Deliberately stricter than CronAdjuster only where it reads text by accident of Java's
/// `String.split`: an empty list item or range end (`1,,2`, `1,2,`, `-5`, `5-`), a third range
/// or step part (`1-2-3`, `1/2/3`), digits outside ASCII. Those are errors here.
struct CronParser {
    /// The fields of a parsed expression; `nil` means "any value".
    struct Fields: Hashable, Sendable {
        var seconds = CronValueSet()
        var minutes = CronValueSet()
        var hours = CronValueSet()
        var days: [CronDayRule]?
        var months = CronValueSet()
        var weekdays: [CronWeekdayRule]?
        var years: [CronRange]?
    }

    /// openHAB's preset words and the expressions they stand for (CronAdjuster.preDeclared).
    /// Note `@weekly` is Monday midnight, whatever CronAdjuster's comment says.
    static let presets: [(word: String, expression: String)] = [
        ("@annually", "0 0 0 1 1 *"), ("@yearly", "0 0 0 1 1 *"), ("@monthly", "0 0 0 1 * *"),
        ("@weekly", "0 0 0 ? * MON"), ("@daily", "0 0 0 * * ?"), ("@hourly", "0 0 * * * ?"),
        ("@reboot", "0 0 0 1 1 ? 1900"),
    ]

    static let monthNames = ["JAN", "FEB", "MAR", "APR", "MAY", "JUN", "JUL", "AUG", "SEP", "OCT", "NOV", "DEC"]
    /// ISO order: index 0 is Monday.
    static let weekdayNames = ["MON", "TUE", "WED", "THU", "FRI", "SAT", "SUN"]

    /// The whole text as the user wrote it, for messages.
    let source: String

    /// Parses `text`.
    /// - Throws: ``RulesError`` with a `rules.cron…` code naming the field and the bad part.
    static func parse(_ text: String) throws(RulesError) -> Fields {
        try CronParser(source: text).parse()
    }

    private func parse() throws(RulesError) -> Fields {
        // CronAdjuster reads the last line; earlier lines are environment settings it ignores for timing.
        let lines = source.split(whereSeparator: { $0 == "\n" || $0 == "\r" || $0 == "\r\n" })
        guard let lastLine = lines.last else {
            throw fieldCount(0, in: source)
        }
        var expression = Self.javaTrimmed(lastLine)
        if expression.hasPrefix("@") {
            guard let preset = Self.presets.first(where: { $0.word == expression }) else {
                let words = Self.presets.map(\.word)
                let suggestion = Suggestion.closest(to: expression, in: words).map { " Did you mean \"\($0)\"?" } ?? ""
                throw RulesError(.cronUnknownPreset,
                                 "Cron expression \"\(source)\" starts with @ but \"\(expression)\" is not a preset word.\(suggestion)",
                                 hint: "openHAB knows \(words.joined(separator: ", ")) (lower case), or write six fields such as \"0 0 0 * * ?\".")
            }
            expression = preset.expression
        }
        let parts = expression.split(whereSeparator: { " \t\n\r\u{0B}\u{0C}".contains($0) })
        guard (6...7).contains(parts.count) else { throw fieldCount(parts.count, in: expression) }

        var fields = Fields()
        fields.seconds = try valueSet(parts[0], .seconds)
        fields.minutes = try valueSet(parts[1], .minutes)
        fields.hours = try valueSet(parts[2], .hours)
        fields.days = try dayRules(parts[3])
        fields.months = try valueSet(parts[4], .month)
        fields.weekdays = try weekdayRules(parts[5])
        fields.years = parts.count == 7 ? try yearRanges(parts[6]) : nil
        return fields
    }

    // MARK: - Fields

    private func isWildcard(_ token: Substring) -> Bool { token == "*" || token == "?" }

    private func items(_ token: Substring, _ field: CronField) throws(RulesError) -> [Substring] {
        let items = token.split(separator: ",", omittingEmptySubsequences: false)
        if items.contains(where: \.isEmpty) {
            throw invalid(field, token, "has an empty item in its comma-separated list")
        }
        return items
    }

    private func valueSet(_ token: Substring, _ field: CronField) throws(RulesError) -> CronValueSet {
        if isWildcard(token) { return CronValueSet(field.range) { _ in true } }
        var set = CronValueSet()
        for item in try items(token, field) {
            let term = try range(item, field)
            set.formUnion(CronValueSet(field.range, where: term.contains))
        }
        return set
    }

    private func yearRanges(_ token: Substring) throws(RulesError) -> [CronRange]? {
        if isWildcard(token) { return nil }
        var terms: [CronRange] = []
        for item in try items(token, .year) { terms.append(try range(item, .year)) }
        return terms
    }

    private func dayRules(_ token: Substring) throws(RulesError) -> [CronDayRule]? {
        if isWildcard(token) { return nil }
        var rules: [CronDayRule] = []
        var plain = CronValueSet()
        for item in try items(token, .dayOfMonth) {
            let upper = item.uppercased()
            if upper == "L" {
                rules.append(.lastDay)
            } else if upper == "LW" || upper == "WL" {
                rules.append(.lastWeekday)
            } else if upper.hasPrefix("L-") {
                throw RulesError(.cronInvalid,
                                 "Cron expression \"\(source)\": \(CronField.dayOfMonth.label) \"\(item)\" (days before the last) is not something openHAB's cron understands.",
                                 hint: "openHAB reads L (last day), LW (last weekday) and 15W (weekday nearest the 15th) here, but not L-n.")
            } else if upper.hasSuffix("W") {
                let target = try number(item.dropLast(), .dayOfMonth, in: item)
                rules.append(.nearestWeekday(target))
            } else {
                let term = try range(item, .dayOfMonth)
                plain.formUnion(CronValueSet(CronField.dayOfMonth.range, where: term.contains))
            }
        }
        if !plain.isEmpty { rules.insert(.days(plain), at: 0) }
        return rules
    }

    private func weekdayRules(_ token: Substring) throws(RulesError) -> [CronWeekdayRule]? {
        if isWildcard(token) { return nil }
        var rules: [CronWeekdayRule] = []
        var plain = CronValueSet()
        for item in try items(token, .dayOfWeek) {
            // CronAdjuster reads a lone L as Sunday (Quartz would say Saturday).
            let item: Substring = item.uppercased() == "L" ? "SUN" : item
            if let single = try singleWeekday(item) {
                switch single.suffix {
                case .none: plain.formUnion(CronValueSet(1...7) { $0 == single.weekday })
                case .nth(let n): rules.append(.nth(weekday: single.weekday, n: n))
                case .last: rules.append(.last(weekday: single.weekday))
                }
            } else {
                let term = try range(item, .dayOfWeek)
                plain.formUnion(CronValueSet(CronField.dayOfWeek.range, where: term.contains))
            }
        }
        if !plain.isEmpty { rules.insert(.weekdays(plain), at: 0) }
        return rules
    }

    private enum WeekdaySuffix { case none, nth(Int), last }

    /// A weekday written alone, `6#2` or `6L`: a number here counts Quartz-style, 1 = Sunday … 7 = Saturday.
    /// Returns `nil` when `item` is not of that shape (a range or step, read by ``range(_:_:)``).
    private func singleWeekday(_ item: Substring) throws(RulesError) -> (weekday: Int, suffix: WeekdaySuffix)? {
        var head = item
        var suffix = WeekdaySuffix.none
        if let hash = item.firstIndex(of: "#") {
            let digits = item[item.index(after: hash)...]
            guard !digits.isEmpty, digits.allSatisfy(\.isASCIIDigit) else { return nil }
            head = item[..<hash]
            suffix = .nth(try number(digits, .dayOfWeek, in: item))
        } else if item.uppercased().hasSuffix("L") {
            head = item.dropLast()
            suffix = .last
        }
        if let index = Self.weekdayNames.firstIndex(of: head.uppercased()) {
            return (index + 1, suffix)
        }
        guard !head.isEmpty, head.allSatisfy(\.isASCIIDigit) else { return nil }
        let quartz = try number(head, .dayOfWeek, in: item)
        guard (1...7).contains(quartz) else {
            throw RulesError(.cronOutOfRange,
                             "Cron expression \"\(source)\": \(CronField.dayOfWeek.label) \"\(item)\" is out of range 1–7.",
                             hint: CronField.dayOfWeek.accepted)
        }
        return (quartz == 1 ? 7 : quartz - 1, suffix)
    }

    /// A value, `a-b`, `a/n`, `a-b/n` or `*/n`, checked against the field's range as CronAdjuster does.
    private func range(_ item: Substring, _ field: CronField) throws(RulesError) -> CronRange {
        let slashParts = item.split(separator: "/", omittingEmptySubsequences: false)
        guard slashParts.count <= 2, !slashParts.contains(where: \.isEmpty) else {
            throw invalid(field, item, "is not a value, a range a-b or a step a/n")
        }
        var term: CronRange
        if slashParts[0] == "*" {
            term = CronRange(start: field.range.lowerBound, end: field.range.upperBound)
        } else {
            let ends = slashParts[0].split(separator: "-", omittingEmptySubsequences: false)
            guard ends.count <= 2, !ends.contains(where: \.isEmpty) else {
                throw invalid(field, item, "is not a value, a range a-b or a step a/n")
            }
            let start = try value(ends[0], field, in: item)
            let end = ends.count == 2 ? try value(ends[1], field, in: item) : start
            if start < field.range.lowerBound || end > field.range.upperBound {
                let bad = start < field.range.lowerBound ? ends[0] : ends[ends.count - 1]
                let shown = bad == item ? "\"\(item)\"" : "\"\(bad)\" in \"\(item)\""
                throw RulesError(.cronOutOfRange,
                                 "Cron expression \"\(source)\": \(field.label) \(shown) is out of range \(field.range.lowerBound)–\(field.range.upperBound).",
                                 hint: field.accepted)
            }
            term = CronRange(start: start, end: end)
        }
        if slashParts.count == 2 {
            let step = try number(slashParts[1], field, in: item)
            guard step != 0 else {
                throw invalid(field, item, "has a step of 0", hint: "The number after / is how far apart the values are; write 1 or more, e.g. */5.")
            }
            if term.start == term.end { term.end = field.range.upperBound }
            term.step = step
        }
        return term
    }

    /// A number, or a month or weekday name where the field takes names.
    private func value(_ text: Substring, _ field: CronField, in item: Substring) throws(RulesError) -> Int {
        let names: [String] = field == .month ? Self.monthNames : field == .dayOfWeek ? Self.weekdayNames : []
        if let index = names.firstIndex(of: text.uppercased()) { return index + 1 }
        if !names.isEmpty, !text.contains(where: \.isASCIIDigit) {
            let suggestion = Suggestion.closest(to: text.uppercased(), in: names).map { " Did you mean \($0)?" } ?? ""
            let kind = field == .month ? "a month name" : "a weekday name"
            throw invalid(field, text == item ? text : item, "is not a number or \(kind).\(suggestion)", sentenceEnds: true)
        }
        return try number(text, field, in: item)
    }

    /// A decimal integer as Java's `Integer.parseInt` reads it (optional sign, ASCII digits, 32 bits).
    private func number(_ text: Substring, _ field: CronField, in item: Substring) throws(RulesError) -> Int {
        var digits = text
        var negative = false
        if let first = digits.first, first == "+" || first == "-" {
            negative = first == "-"
            digits = digits.dropFirst()
        }
        guard !digits.isEmpty, digits.allSatisfy(\.isASCIIDigit), digits.count <= 10,
              let magnitude = Int(digits), magnitude <= Int(Int32.max) else {
            throw invalid(field, item, "is not a number")
        }
        return negative ? -magnitude : magnitude
    }

    // MARK: - Errors

    private func invalid(_ field: CronField, _ item: Substring, _ problem: String,
                         hint: String? = nil, sentenceEnds: Bool = false) -> RulesError {
        RulesError(.cronInvalid,
                   "Cron expression \"\(source)\": \(field.label) \"\(item)\" \(problem)\(sentenceEnds ? "" : ".")",
                   hint: hint ?? field.accepted)
    }

    private func fieldCount(_ count: Int, in expression: String) -> RulesError {
        RulesError(.cronFieldCount,
                   "Cron expression \"\(source)\" has \(count) field\(count == 1 ? "" : "s"); openHAB expects 6 or 7: seconds minutes hours day-of-month month day-of-week [year].",
                   hint: "For every day at 08:30 write \"0 30 8 * * ?\".")
    }

    /// `String.trim()` of Java: drops characters up to U+0020 at both ends.
    private static func javaTrimmed(_ text: Substring) -> String {
        let scalars = text.unicodeScalars
        guard let first = scalars.firstIndex(where: { $0.value > 0x20 }),
              let last = scalars.lastIndex(where: { $0.value > 0x20 }) else { return "" }
        return String(scalars[first...last])
    }
}

extension Character {
    /// Whether this is one of the ASCII digits 0–9.
    fileprivate var isASCIIDigit: Bool { isASCII && isNumber }
}
