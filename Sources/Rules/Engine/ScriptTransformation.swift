import Foundation

/// `transform(type, function, value)` as openhab-core's `Transformation` runs it for a script — the Rules DSL's
/// `transform`/`transformRaw` and JavaScript's `actions.Transformation` alike: the twin runs REGEX
/// (openhab-addons `RegExTransformationService`), MAP and SCALE on the scenario's `transformFiles`
/// (`MapTransformationService`, `ScaleTransformationService`, ``TransformFile``) and JSONPATH
/// (`JSonPathTransformationService`, ``JSONPathTransform``).
public enum ScriptTransformation {
    /// The transformation types the twin runs.
    public static let types: Set<String> = ["REGEX", "MAP", "SCALE", "JSONPATH"]

    /// What a transformation gave.
    public enum Outcome: Sendable, Equatable {
        /// The result (`nil`: the service answered null, e.g. a REGEX without a match).
        case value(String?)
        /// The service failed (openHAB's `TransformationException`): `transform` gives the value back,
        /// `transformRaw` throws.
        case failure(String)
        /// A type, file or JSONPATH the twin does not run: openHAB would pass the value through unchanged, which
        /// would let a CI run pass on untransformed data, so the caller refuses it (the message names it).
        case refused(String)
    }

    /// Transforms `value` with `type` (upper-cased, as openhab-core's `TransformationHelper` does) and `function`.
    /// - Parameter name: how the script called it (`transform`, `actions.Transformation.transform`), for messages.
    public static func apply(type: String, function: String, value: String, execution: RuleExecution, name: String) -> Outcome {
        let kind = type.uppercased()
        guard types.contains(kind) else {
            return .refused("\(name)(\"\(type)\", …): the twin runs the transformations \(types.sorted().joined(separator: ", ")) only")
        }
        switch kind {
        case "REGEX":
            do throws(Failure) {
                return .value(try regex(function, value))
            } catch {
                return .failure(error.message)
            }
        case "JSONPATH":
            do throws(JSONPathTransform.Unsupported) {
                return outcome(try JSONPathTransform.transform(function, value))
            } catch {
                return .refused("\(name)(\"JSONPATH\", …): \(error.message)")
            }
        default:
            let found = execution.transformFile(named: function)
            if let file = found.file, file.kind.rawValue != kind {
                return .refused("\(name)(\"\(kind)\", \"\(function)\", …): \(function) is a \(file.kind.rawValue) file, not a \(kind) one")
            }
            guard let file = found.file else {
                let loaded = found.names.isEmpty ? "none" : found.names.joined(separator: ", ")
                return .refused("\(name)(\"\(kind)\", \"\(function)\", …): the scenario loads no \(kind) file \(function) "
                                + "(its transformFiles: \(loaded)); openHAB would give the value back untransformed")
            }
            return outcome(file.transform(value))
        }
    }

    private static func outcome(_ outcome: TransformFile.Outcome) -> Outcome {
        switch outcome {
        case .value(let text): .value(text)
        case .failure(let message): .failure(message)
        }
    }

    /// A REGEX failure (a function that is no regular expression).
    struct Failure: Error {
        let message: String
    }

    /// REGEX: `s/regex/substitution/[g]` replaces in the trimmed value; otherwise `^regex$` (DOTALL) must match
    /// the trimmed value whole and its first group is the result (`""` without a group; `nil` without a match).
    static func regex(_ function: String, _ source: String) throws(Failure) -> String? {
        let trimmed = source.trimmingCharacters(in: CharacterSet(charactersIn: Unicode.Scalar(0)...Unicode.Scalar(32)))
        let ns = trimmed as NSString
        let whole = NSRange(location: 0, length: ns.length)
        let substitution = try compile(#"^s/(.*?[^\\])/(.*?[^\\])/(.*)$"#, options: [])
        let f = function as NSString
        if let m = substitution.firstMatch(in: function, range: NSRange(location: 0, length: f.length)) {
            let re = try compile(f.substring(with: m.range(at: 1)), options: [])
            let template = f.substring(with: m.range(at: 2))
            if f.substring(with: m.range(at: 3)) == "g" {
                return re.stringByReplacingMatches(in: trimmed, range: whole, withTemplate: template)
            }
            guard let first = re.firstMatch(in: trimmed, range: whole) else { return trimmed }
            return ns.replacingCharacters(in: first.range, with: re.replacementString(for: first, in: trimmed, offset: 0, template: template))
        }
        let re = try compile("^" + function + "$", options: [.dotMatchesLineSeparators])
        guard let m = re.firstMatch(in: trimmed, range: whole), m.range == whole else { return nil }
        guard re.numberOfCaptureGroups > 0 else { return "" }
        let group = m.range(at: 1)
        return group.location == NSNotFound ? nil : ns.substring(with: group)
    }

    private static func compile(_ pattern: String, options: NSRegularExpression.Options) throws(Failure) -> NSRegularExpression {
        do { return try NSRegularExpression(pattern: pattern, options: options) } catch {
            throw Failure(message: "\(pattern) is not a regular expression")
        }
    }
}
