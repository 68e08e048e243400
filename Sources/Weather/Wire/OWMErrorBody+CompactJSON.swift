import Foundation

/// The hand-written writer and reader of OpenWeatherMap's error body, which the feed sends and the client
/// reads on every failed request (an outage fails every hourly request of the weather watcher).
///
/// Like the current-weather ones: ``compactJSON()`` writes the very bytes ``OrderedJSONEncoder`` writes,
/// and ``init(compactJSON:)`` returns a value only when `JSONDecoder` would decode the same one (otherwise
/// `nil`, and the caller decodes with `JSONDecoder`).
extension OWMErrorBody {
    /// `{"cod":401,"message":"…"}`, byte for byte what ``OrderedJSONEncoder/encode(_:)`` writes.
    func compactJSON() -> Data? {
        var out = CompactJSONWriter(capacity: 32 + message.utf8.count)
        out.beginObject()
        out.key("cod")
        cod.write(into: &out)
        out.key("message")
        out.string(message)
        out.endObject()
        return out.data()
    }

    /// Reads an error body the way `JSONDecoder` would, or gives up (see ``OWMCurrentWeather/init(compactJSON:)``).
    /// - Parameter bytes: the UTF-8 body.
    init?(compactJSON bytes: UnsafeRawBufferPointer) {
        var reader = CompactJSONReader(bytes)
        var cod: OWMCode?, message: String?
        let complete = reader.readObject { reader, key in
            switch key {
            case "cod": cod = OWMCode(reading: &reader); return cod != nil
            case "message": message = reader.readString(); return message != nil
            default: return reader.skipValue()
            }
        }
        guard complete, reader.isAtEnd, let cod, let message else { return nil }
        self.init(cod: cod, message: message)
    }
}
