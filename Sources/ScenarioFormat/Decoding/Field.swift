import Simulation

/// A JSON value at a path, with typed readers that report a problem (and return nil) when the
/// value has the wrong type or range.
struct Field {
    let node: JSONNode
    let path: String
    let issues: IssueCollector

    var line: Int { node.line }

    func problem(_ message: String, hint: String? = nil) {
        issues.add(path, line: node.line, message, hint: hint)
    }

    var string: String? {
        if case .string(let s) = node.value { return s }
        problem("expected a string, found \(node.kindDescription).")
        return nil
    }

    /// A non-empty string.
    var name: String? {
        guard let s = string else { return nil }
        // Blank when every character is a space or tab — Foundation's `CharacterSet.whitespaces`: Unicode's Zs and
        // U+0009 (the first other one ends the look: one test for most names).
        guard s.unicodeScalars.contains(where: { $0 != "\t" && $0.properties.generalCategory != .spaceSeparator }) else {
            problem("must not be empty.")
            return nil
        }
        return s
    }

    /// A state or command text, written as a JSON string (`"ON"`, `"22 °C"`) or a plain number (`22`, kept as written).
    /// - Parameter what: `state` or `command`, for the message.
    func openHABText(_ what: String) -> String? {
        switch node.value {
        case .string(let s): return s
        case .number(_, let t): return t
        default:
            problem("expected a \(what) such as \"ON\" or \"22 °C\", found \(node.kindDescription).")
            return nil
        }
    }

    var number: Double? {
        if case .number(let value, _) = node.value { return value }
        problem("expected a number, found \(node.kindDescription).", hint: node.kindDescription == "a string" ? "write numbers without quotes." : nil)
        return nil
    }

    var integer: Int? {
        guard case .number(_, let text) = node.value else {
            problem("expected a whole number, found \(node.kindDescription).")
            return nil
        }
        guard let value = Int(text) else {
            problem("expected a whole number, found \(text).")
            return nil
        }
        return value
    }

    var bool: Bool? {
        if case .bool(let b) = node.value { return b }
        problem("expected true or false, found \(node.kindDescription).")
        return nil
    }

    var isNull: Bool { node.value == .null }

    var array: FieldList? {
        guard case .array(let elements) = node.value else {
            problem("expected an array, found \(node.kindDescription).")
            return nil
        }
        return FieldList(elements: elements, path: path, issues: issues)
    }

    func object(_ allowed: [String]) -> ObjectReader? { ObjectReader(self, allowed: allowed) }

    /// A number in `range` (for messages, `unit` and `rule` describe it; `hint` says what is typical).
    func number(in range: ClosedRange<Double>? = nil, above lower: Double? = nil, unit: String = "", rule: String = "",
                hint: String? = nil) -> Double? {
        guard let value = number else { return nil }
        if let range, !range.contains(value) {
            problem("is \(format(value))\(unit) but must be \(rule.isEmpty ? "between \(format(range.lowerBound)) and \(format(range.upperBound))\(unit)" : rule).",
                    hint: hint)
            return nil
        }
        if let lower, !(value > lower) {
            problem("is \(format(value))\(unit) but must be \(rule.isEmpty ? "more than \(format(lower))\(unit)" : rule).", hint: hint)
            return nil
        }
        return value
    }

    /// An outdoor temperature: a number within ``PhysicalBounds/outdoorC``.
    var outdoorCelsius: Double? {
        number(in: PhysicalBounds.outdoorC, unit: " °C",
               hint: "outdoor temperatures stay within \(format(PhysicalBounds.outdoorC.lowerBound)) … +\(format(PhysicalBounds.outdoorC.upperBound)) °C on Earth.")
    }

    /// A local or offset date-time in the scenario's calendar.
    func instant(_ calendar: LocalCalendar) -> SimInstant? {
        guard let text = string else { return nil }
        do {
            return try calendar.parseInstant(text)
        } catch {
            problem("\(error.message)", hint: "write a date-time like \"2026-01-09T16:00\" (local time in \(calendar.identifier)), or with an offset or Z.")
            return nil
        }
    }

    /// A calendar date `YYYY-MM-DD`.
    var date: CivilDate? {
        guard let text = string else { return nil }
        do {
            return try LocalCalendar.parseDate(text)
        } catch {
            problem("\(error.message)", hint: "write a date like \"2026-01-09\".")
            return nil
        }
    }

    /// A local time `HH:MM`.
    var time: LocalTime? {
        guard let text = string else { return nil }
        do {
            return try LocalCalendar.parseTime(text)
        } catch {
            problem("\(error.message)", hint: "write a time like \"15:00\".")
            return nil
        }
    }

    /// An ISO 8601 duration like `PT2H`, zero or more.
    var duration: SimDuration? {
        guard let text = string else { return nil }
        do {
            let value = try ISODuration.parse(text)
            guard value >= .milliseconds(0) else {
                problem("is negative; a buffer or lead time must be zero or more.")
                return nil
            }
            return value
        } catch {
            problem("\(error.message)", hint: "write an ISO 8601 duration like \"PT2H\", \"PT90M\" or \"P1DT6H\".")
            return nil
        }
    }
}

/// Plain decimal text for numbers in messages (`21`, `0.5`).
package func format(_ value: Double) -> String {
    value == value.rounded() && abs(value) < 1e15 ? String(Int64(value)) : String(value)
}

/// An array's elements as fields, each made when it is read: a portfolio's timeline has half a
/// million steps, and their fields (with their paths) all at once were a large share of reading it.
struct FieldList: RandomAccessCollection {
    let elements: [JSONNode]
    let path: String
    let issues: IssueCollector

    var startIndex: Int { 0 }
    var endIndex: Int { elements.count }
    subscript(index: Int) -> Field { Field(node: elements[index], path: "\(path)[\(index)]", issues: issues) }
}
