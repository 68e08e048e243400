/// OpenWeatherMap's `cod` field, which the service sends as a number (`401`) or as a string
/// (`"404"`) depending on the endpoint and error.
///
/// Decoding accepts either form; encoding writes the form it holds, so a decoded body
/// re-encodes byte for byte.
public enum OWMCode: Sendable, Equatable, Codable, CustomStringConvertible {
    /// A JSON number, e.g. `401`.
    case number(Int)
    /// A JSON string, e.g. `"404"`.
    case text(String)

    /// The numeric value, whichever form it came in (`nil` for a string that is not a number).
    public var value: Int? {
        switch self {
        case .number(let n): n
        case .text(let s): Int(s)
        }
    }

    /// Decodes a number or a string.
    /// - Throws: `DecodingError.typeMismatch` for anything else.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if let number = try? container.decode(Int.self) {
            self = .number(number)
        } else if let text = try? container.decode(String.self) {
            self = .text(text)
        } else {
            throw DecodingError.typeMismatch(OWMCode.self, .init(codingPath: decoder.codingPath,
                                                                 debugDescription: "cod is neither a number nor a string"))
        }
    }

    /// Encodes the form held.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .number(let n): try container.encode(n)
        case .text(let s): try container.encode(s)
        }
    }

    /// The value as written in JSON: `401` or `"404"`.
    public var description: String {
        switch self {
        case .number(let n): String(n)
        case .text(let s): "\"\(s)\""
        }
    }
}
