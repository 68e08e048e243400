import Foundation
import Simulation

/// The JSON coding used for openHAB DTOs: the format layer's ``OrderedJSONEncoder``.
///
/// openHAB's Gson writes fields in declaration order (an enriched DTO's own fields first, then
/// its base class's); the DTOs declare their properties in that order, so the bytes read as
/// openHAB writes them, `nil` fields omitted, `/` not escaped, identical from run to run.
public enum OpenHABJSON {
    /// Encodes a DTO to deterministic JSON bytes.
    /// - Throws: ``SimulationError`` `json.unencodable` for a non-finite number.
    public static func encode<T: Encodable>(_ value: T) throws(SimulationError) -> Data {
        try OrderedJSONEncoder().encode(value)
    }

    /// Encodes a DTO to a deterministic JSON string.
    /// - Throws: ``SimulationError`` `json.unencodable` for a non-finite number.
    public static func string<T: Encodable>(_ value: T) throws(SimulationError) -> String {
        try OrderedJSONEncoder().encodeToString(value)
    }

    /// Decodes a DTO.
    public static func decode<T: Decodable>(_ type: T.Type, from data: Data) throws -> T {
        try JSONDecoder().decode(type, from: data)
    }
}
