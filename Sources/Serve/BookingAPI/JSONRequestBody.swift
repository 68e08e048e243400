import ScenarioFormat
import Simulation

/// A request's JSON object body, read field by field; every problem is a `400` that names the
/// field, what was found and an example of what is wanted.
struct JSONRequestBody {
    private let object: JSONNode
    /// What the body is for, for messages: `POST /api/reservations`.
    private let context: String
    /// A complete example body, quoted in every message.
    private let example: String

    init(_ bytes: [UInt8], context: String, example: String) throws(ServeError) {
        self.context = context
        self.example = example
        guard !bytes.isEmpty else {
            throw ServeError(.badRequest, "\(context) needs a JSON body, like \(example).")
        }
        let parsed: JSONNode
        do { parsed = try JSONParser.parse(bytes: bytes) } catch {
            throw ServeError(.badRequest, "The body of \(context) is not valid JSON (line \(error.line), column \(error.column): \(error.message)); send an object like \(example).")
        }
        guard let members = parsed.members else {
            throw ServeError(.badRequest, "The body of \(context) is JSON but not an object; send an object like \(example).")
        }
        let known = Set(Self.keys(of: example))
        if let unknown = members.map(\.key).sorted().first(where: { !known.contains($0) }) {
            throw ServeError(.badRequest, "\(context) has no field \"\(unknown)\"; its fields are \(known.sorted().joined(separator: ", ")), as in \(example).")
        }
        object = parsed
    }

    /// A required string field.
    func string(_ name: String) throws(ServeError) -> String {
        guard let value = try optionalString(name) else { throw missing(name, "a string") }
        return value
    }

    /// An optional string field (`null` counts as absent).
    func optionalString(_ name: String) throws(ServeError) -> String? {
        guard let value = present(name) else { return nil }
        guard let text = value.stringValue else { throw wrong(name, value, "a string") }
        return text
    }

    /// A required integer field.
    func int(_ name: String) throws(ServeError) -> Int {
        guard let value = present(name) else { throw missing(name, "a whole number") }
        guard let int = value.intValue else { throw wrong(name, value, "a whole number") }
        return int
    }

    /// An optional integer field.
    func optionalInt(_ name: String) throws(ServeError) -> Int? {
        guard present(name) != nil else { return nil }
        return try int(name)
    }

    /// A required boolean field.
    func bool(_ name: String) throws(ServeError) -> Bool {
        guard let value = present(name) else { throw missing(name, "true or false") }
        guard let flag = value.boolValue else { throw wrong(name, value, "true or false") }
        return flag
    }

    /// A required date field `YYYY-MM-DD`.
    func date(_ name: String) throws(ServeError) -> CivilDate {
        let text = try string(name)
        do { return try LocalCalendar.parseDate(text) } catch {
            throw ServeError(.badRequest, "\"\(name)\" of \(context): \(error.message) Write a date like \"2026-11-20\", as in \(example).")
        }
    }

    /// A required time-of-day field `HH:MM`, or `fallback` when absent.
    func time(_ name: String, default fallback: LocalTime) throws(ServeError) -> LocalTime {
        guard let text = try optionalString(name) else { return fallback }
        do { return try LocalCalendar.parseTime(text) } catch {
            throw ServeError(.badRequest, "\"\(name)\" of \(context): \(error.message) Write a time like \"15:00\".")
        }
    }

    /// The field `name` unless it is absent or `null`.
    private func present(_ name: String) -> JSONNode? {
        guard let value = object[name], !value.isNull else { return nil }
        return value
    }

    private func missing(_ name: String, _ kind: String) -> ServeError {
        ServeError(.badRequest, "\(context) needs \"\(name)\" (\(kind)), as in \(example).")
    }

    private func wrong(_ name: String, _ value: JSONNode, _ kind: String) -> ServeError {
        let found: String = switch value.value {
        case .string(let text): "the string \"\(text)\""
        case .bool(let flag): "\(flag)"
        case .number(_, let text): text
        default: value.kindDescription
        }
        return ServeError(.badRequest, "\"\(name)\" of \(context) is \(found), not \(kind), as in \(example).")
    }

    /// The top-level keys of the example.
    private static func keys(of example: String) -> [String] {
        ((try? JSONParser.parse(example))?.members ?? []).map(\.key)
    }
}
