import Foundation

/// `transform(type, function, value)` and `transformRaw` (openhab-core `Transformation`): the twin runs
/// REGEX (openhab-addons `RegExTransformationService`), MAP and SCALE on the scenario's `transformFiles`
/// (`MapTransformationService`, `ScaleTransformationService`, ``TransformFile``) and JSONPATH
/// (`JSonPathTransformationService`, ``JSONPathTransform``). `transform` answers the value itself when the
/// service fails, as openHAB does; `transformRaw` throws a `TransformationException` instead. A type the
/// twin does not run (JS, XSLT, …), a MAP/SCALE file the scenario does not load and a JSONPATH the twin does
/// not run end the run naming them (`rules.dslUnsupported`): openHAB would pass the value through unchanged,
/// which would let a CI run pass on untransformed data.
enum DSLTransform {
    static let types: Set<String> = ["REGEX", "MAP", "SCALE", "JSONPATH"]

    static func call(raw: Bool, _ i: DSLInterpreter, _ a: [DSLValue], _ at: DSLLocation) throws(DSLFlow) -> DSLValue {
        let name = raw ? "transformRaw" : "transform"
        guard a.count == 3, case .string(let type) = a[0], case .string(let function) = a[1] else {
            throw DSLFlow.failure("\(name) takes a type (\"MAP\"), a function and a value", at, type: "IllegalArgumentException")
        }
        // openhab-core TransformationHelper: the type is upper-cased.
        let kind = type.uppercased()
        guard types.contains(kind) else {
            throw DSLFlow.fatal("\(name)(\"\(type)\", …): the twin runs the transformations \(types.sorted().joined(separator: ", ")) only (rules.dslUnsupported)", at)
        }
        let value = i.describe(a[2])
        let outcome: TransformFile.Outcome
        switch kind {
        case "REGEX":
            do throws(DSLFlow) {
                outcome = .value(try regex(function, value, at))
            } catch {
                if raw { throw error }
                return .string(value)
            }
        case "JSONPATH":
            do throws(JSONPathTransform.Unsupported) {
                outcome = try JSONPathTransform.transform(function, value)
            } catch {
                throw DSLFlow.fatal("\(name)(\"JSONPATH\", …): \(error.message) (rules.dslUnsupported)", at)
            }
        default:
            let found = i.execution.transformFile(named: function)
            if let file = found.file, file.kind.rawValue != kind {
                throw DSLFlow.fatal("\(name)(\"\(kind)\", \"\(function)\", …): \(function) is a \(file.kind.rawValue) file, not a \(kind) one (rules.dslUnsupported)", at)
            }
            guard let file = found.file else {
                let loaded = found.names.isEmpty ? "none" : found.names.joined(separator: ", ")
                throw DSLFlow.fatal("\(name)(\"\(kind)\", \"\(function)\", …): the scenario loads no \(kind) file \(function) "
                                    + "(its transformFiles: \(loaded)); openHAB would give the value back untransformed (rules.dslUnsupported)", at)
            }
            outcome = file.transform(value)
        }
        switch outcome {
        case .value(let text): return text.map(DSLValue.string) ?? .null
        case .failure(let message):
            if raw { throw DSLFlow.failure(message, at, type: "TransformationException") }
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
