import Foundation

/// The one deterministic JSON encoder: object keys in exactly the order `encode(to:)` encodes them.
///
/// Foundation's `JSONEncoder` on Linux writes keys in hash order, which changes from
/// process to process; the wire formats the twin speaks need a fixed order and byte-identical
/// output from run to run. openHAB's Gson and OpenWeatherMap both write fields in declaration
/// order, so this encoder keeps insertion order (a synthesised `Encodable` conformance writes
/// the properties in declaration order). A `[String: …]` dictionary, which has no order of its
/// own, is written with its keys sorted. Output is compact JSON with no whitespace, `/` not
/// escaped, strings escaped by ``JSONString``, numbers by ``DecimalText/json(_:)``: integral
/// values without a fraction (`1013`), others in Swift's shortest round-trip form (`-3.2`).
/// `nil` optionals of a synthesised conformance are omitted, never written as `null`.
public struct OrderedJSONEncoder: Sendable {
    /// Creates an encoder.
    public init() {}

    /// Encodes `value` as compact JSON, UTF-8.
    /// - Throws: ``SimulationError`` `json.unencodable` when a number is not finite or the
    ///   value's own `encode(to:)` fails.
    public func encode<T: Encodable>(_ value: T) throws(SimulationError) -> Data {
        Data(try encodeToString(value).utf8)
    }

    /// Encodes `value` as a compact JSON string.
    /// - Throws: ``SimulationError`` `json.unencodable`, as ``encode(_:)``.
    public func encodeToString<T: Encodable>(_ value: T) throws(SimulationError) -> String {
        let root = OrderedJSONNode()
        do {
            try value.encode(to: OrderedJSONNodeEncoder(node: root, codingPath: []))
        } catch {
            throw SimulationError(.unencodable, "\(T.self) could not be written as JSON: \(error); only finite numbers can be encoded.")
        }
        var out = ""
        root.write(into: &out)
        return out
    }
}
