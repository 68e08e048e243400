import Foundation

/// `transform(type, function, value)` and `transformRaw` (openhab-core `Transformation`): the twin runs the
/// REGEX service (openhab-addons `RegExTransformationService`). `transform` answers the value itself when
/// the service fails, as openHAB does; `transformRaw` throws a `TransformationException` instead. A type
/// the twin does not run (MAP, JSONPATH, SCALE, JS, …) ends the run naming it (`rules.dslUnsupported`):
/// openHAB would pass the value through unchanged, which would let a CI run pass on untransformed data.
enum DSLTransform {
    static let types: Set<String> = ["REGEX"]

    static func call(raw: Bool, _ i: DSLInterpreter, _ a: [DSLValue], _ at: DSLLocation) throws(DSLFlow) -> DSLValue {
        let name = raw ? "transformRaw" : "transform"
        guard a.count == 3, case .string(let type) = a[0], case .string(let function) = a[1] else {
            throw DSLFlow.failure("\(name) takes a type (\"REGEX\"), a function and a value", at, type: "IllegalArgumentException")
        }
        guard types.contains(type) else {
            throw DSLFlow.fatal("\(name)(\"\(type)\", …): the twin runs the transformation \(types.sorted().joined(separator: ", ")) only (rules.dslUnsupported)", at)
        }
        let value = i.describe(a[2])
        do throws(DSLFlow) {
            return try regex(function, value, at).map(DSLValue.string) ?? .null
        } catch {
            if raw { throw error }
            return .string(value)
        }
    }

    /// REGEX: `s/regex/substitution/[g]` replaces in the trimmed value; otherwise `^regex$` (DOTALL) must match
    /// the trimmed value whole and its first group is the result (`""` without a group; `nil` without a match).
    static func regex(_ function: String, _ source: String, _ at: DSLLocation) throws(DSLFlow) -> String? {
        let trimmed = source.trimmingCharacters(in: CharacterSet(charactersIn: Unicode.Scalar(0)...Unicode.Scalar(32)))
        let ns = trimmed as NSString
        let whole = NSRange(location: 0, length: ns.length)
        let substitution = try compile(#"^s/(.*?[^\\])/(.*?[^\\])/(.*)$"#, options: [], at)
        let f = function as NSString
        if let m = substitution.firstMatch(in: function, range: NSRange(location: 0, length: f.length)) {
            let re = try compile(f.substring(with: m.range(at: 1)), options: [], at)
            let template = f.substring(with: m.range(at: 2))
            if f.substring(with: m.range(at: 3)) == "g" {
                return re.stringByReplacingMatches(in: trimmed, range: whole, withTemplate: template)
            }
            guard let first = re.firstMatch(in: trimmed, range: whole) else { return trimmed }
            return ns.replacingCharacters(in: first.range, with: re.replacementString(for: first, in: trimmed, offset: 0, template: template))
        }
        let re = try compile("^" + function + "$", options: [.dotMatchesLineSeparators], at)
        guard let m = re.firstMatch(in: trimmed, range: whole), m.range == whole else { return nil }
        guard re.numberOfCaptureGroups > 0 else { return "" }
        let group = m.range(at: 1)
        return group.location == NSNotFound ? nil : ns.substring(with: group)
    }

    private static func compile(_ pattern: String, options: NSRegularExpression.Options, _ at: DSLLocation) throws(DSLFlow) -> NSRegularExpression {
        do { return try NSRegularExpression(pattern: pattern, options: options) } catch {
            throw DSLFlow.failure("\(pattern) is not a regular expression", at, type: "TransformationException")
        }
    }
}
