import Foundation

/// The JSON coding used for openHAB DTOs.
///
/// Keys are sorted (Linux Foundation's `JSONEncoder` otherwise writes them in a different
/// order on every run) and `/` is not escaped, so `link` URLs read as openHAB writes them.
/// openHAB clients do not depend on key order; the bytes are identical from run to run.
public enum OpenHABJSON {
    /// Encodes a DTO to deterministic JSON bytes.
    public static func encode<T: Encodable>(_ value: T) throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return try encoder.encode(value)
    }

    /// Encodes a DTO to a deterministic JSON string.
    public static func string<T: Encodable>(_ value: T) throws -> String {
        String(decoding: try encode(value), as: UTF8.self)
    }

    /// Decodes a DTO.
    public static func decode<T: Decodable>(_ type: T.Type, from data: Data) throws -> T {
        try JSONDecoder().decode(type, from: data)
    }
}
