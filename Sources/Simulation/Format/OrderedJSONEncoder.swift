import Foundation

/// A JSON encoder that writes object keys in exactly the order `encode(to:)` encodes them.
///
/// Foundation's `JSONEncoder` on Linux writes keys in hash order, which changes from
/// process to process; a wire format such as OpenWeatherMap's needs its own fixed order and
/// byte-identical output from run to run. This encoder keeps insertion order (so a
/// synthesised `Encodable` conformance writes the properties in declaration order), writes
/// compact JSON with no whitespace, does not escape `/`, and formats numbers
/// locale-independently: integral values without a fraction (`1013`), others in Swift's
/// shortest round-trip form (`-3.2`).
public struct OrderedJSONEncoder: Sendable {
    /// Creates an encoder.
    public init() {}

    /// Encodes `value` as compact JSON, UTF-8.
    /// - Throws: ``WeatherError`` `weather.encoding` when a number is not finite or the
    ///   value's own `encode(to:)` fails.
    public func encode<T: Encodable>(_ value: T) throws(WeatherError) -> Data {
        Data(try encodeToString(value).utf8)
    }

    /// Encodes `value` as a compact JSON string.
    /// - Throws: ``WeatherError`` `weather.encoding`, as ``encode(_:)``.
    public func encodeToString<T: Encodable>(_ value: T) throws(WeatherError) -> String {
        let root = OrderedJSONNode()
        do {
            try value.encode(to: OrderedJSONNodeEncoder(node: root, codingPath: []))
        } catch {
            throw WeatherError(.encoding, "\(T.self) could not be written as JSON: \(error); only finite numbers can be encoded.")
        }
        var out = ""
        root.write(into: &out)
        return out
    }
}
