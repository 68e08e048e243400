import Foundation

/// A hand-written writer and reader for the current-weather body, the one body the feed serves and the
/// client reads every hour for every watched city.
///
/// Both are exact stand-ins for the general machinery: ``compactJSON()`` writes the very bytes
/// ``OrderedJSONEncoder`` writes, and ``init(compactJSON:)`` returns a value only when Foundation's
/// `JSONDecoder` would decode the same one — for anything unusual it returns `nil`, and the caller decodes
/// with `JSONDecoder`, which then also produces the error message.
extension OWMCurrentWeather {
    /// The body as compact JSON, byte for byte what ``OrderedJSONEncoder/encode(_:)`` writes
    /// (keys in wire order, absent optionals left out).
    /// - Returns: `nil` when a number is not finite (where the encoder throws `json.unencodable`).
    func compactJSON() -> Data? {
        compactJSON(after: nil)?.bytes
    }

    /// A body written by ``compactJSON(after:)``, kept to write the next one for the same city: its value, its bytes,
    /// and each member's bytes in them.
    /// A class: a body is large, and handing it on must copy nothing.
    final class WrittenBody: Sendable {
        let value: OWMCurrentWeather
        let bytes: Data
        /// Each member's bytes (`"key":value`) by ``Member``'s raw value; empty for one left out.
        let spans: [Range<Int>]

        init(value: OWMCurrentWeather, bytes: Data, spans: [Range<Int>]) {
            self.value = value
            self.bytes = bytes
            self.spans = spans
        }
    }

    /// The body's members in wire order.
    enum Member: Int, CaseIterable {
        case coord, weather, base, main, visibility, wind, clouds, rain, snow, dt, sys, timezone, id, name, cod
    }

    /// The body written as ``compactJSON()`` writes it, taking each member whose value is the same as in `earlier`
    /// (the same numbers bit for bit, the same strings byte for byte: what the writer writes from) as the bytes
    /// written for it then — a city's answers differ in a few members an hour (`main`, `dt`).
    /// - Returns: the bytes and what the next body is written against; `nil` as ``compactJSON()``.
    func compactJSON(after earlier: WrittenBody?) -> WrittenBody? {
        var out = CompactJSONWriter()
        var spans = [Range<Int>](repeating: 0..<0, count: Member.allCases.count)
        out.beginObject()
        if let earlier {
            earlier.bytes.withUnsafeBytes { bytes in write(into: &out, spans: &spans, earlier: earlier, bytes) }
        } else {
            write(into: &out, spans: &spans, earlier: nil, UnsafeRawBufferPointer(start: nil, count: 0))
        }
        out.endObject()
        return out.data().map { WrittenBody(value: self, bytes: $0, spans: spans) }
    }

    /// The members, each written or taken from `earlier`, its bytes' range noted in `spans`.
    private func write(into out: inout CompactJSONWriter, spans: inout [Range<Int>], earlier: WrittenBody?,
                       _ earlierBytes: UnsafeRawBufferPointer) {
        /// Writes member `member` (present: `write` is called) unless `same` says the earlier body's is the same.
        func member(_ member: Member, _ out: inout CompactJSONWriter, same: (OWMCurrentWeather) -> Bool,
                    _ write: (inout CompactJSONWriter) -> Void) {
            let start = out.memberStart
            if let earlier, !earlier.spans[member.rawValue].isEmpty, same(earlier.value) {
                out.member(UnsafeRawBufferPointer(rebasing: earlierBytes[earlier.spans[member.rawValue]]))
            } else {
                write(&out)
            }
            spans[member.rawValue] = start..<out.byteCount
        }
        member(.coord, &out, same: { Self.same($0.coord.lon, coord.lon) && Self.same($0.coord.lat, coord.lat) }) { out in
            out.key("coord")
            out.beginObject()
            out.key("lon"); out.number(coord.lon)
            out.key("lat"); out.number(coord.lat)
            out.endObject()
        }
        member(.weather, &out, same: { $0.weather.elementsEqual(weather, by: Self.same) }) { out in
            out.key("weather")
            out.beginArray()
            for entry in weather {
                out.beginObject()
                out.key("id"); out.integer(entry.id)
                out.key("main"); out.string(entry.main)
                out.key("description"); out.string(entry.description)
                out.key("icon"); out.string(entry.icon)
                out.endObject()
            }
            out.endArray()
        }
        member(.base, &out, same: { Self.same($0.base, base) }) { out in out.key("base"); out.string(base) }
        member(.main, &out, same: { Self.same($0.main, main) }) { out in out.key("main"); main.write(into: &out) }
        if let visibility {
            member(.visibility, &out, same: { $0.visibility == visibility }) { out in out.key("visibility"); out.integer(visibility) }
        }
        member(.wind, &out, same: { Self.same($0.wind.speed, wind.speed) && $0.wind.deg == wind.deg && Self.same($0.wind.gust, wind.gust) }) { out in
            out.key("wind")
            out.beginObject()
            out.key("speed"); out.number(wind.speed)
            out.key("deg"); out.integer(wind.deg)
            if let gust = wind.gust { out.key("gust"); out.number(gust) }
            out.endObject()
        }
        member(.clouds, &out, same: { $0.clouds == clouds }) { out in
            out.key("clouds")
            out.beginObject()
            out.key("all"); out.integer(clouds.all)
            out.endObject()
        }
        if let rain { member(.rain, &out, same: { Self.same($0.rain, rain) }) { out in out.key("rain"); rain.write(into: &out) } }
        if let snow { member(.snow, &out, same: { Self.same($0.snow, snow) }) { out in out.key("snow"); snow.write(into: &out) } }
        member(.dt, &out, same: { $0.dt == dt }) { out in out.key("dt"); out.integer(dt) }
        member(.sys, &out, same: { Self.same($0.sys.country, sys.country) && $0.sys.sunrise == sys.sunrise && $0.sys.sunset == sys.sunset }) { out in
            out.key("sys")
            out.beginObject()
            if let country = sys.country { out.key("country"); out.string(country) }
            out.key("sunrise"); out.integer(sys.sunrise)
            out.key("sunset"); out.integer(sys.sunset)
            out.endObject()
        }
        member(.timezone, &out, same: { $0.timezone == timezone }) { out in out.key("timezone"); out.integer(timezone) }
        member(.id, &out, same: { $0.id == id }) { out in out.key("id"); out.integer(id) }
        member(.name, &out, same: { Self.same($0.name, name) }) { out in out.key("name"); out.string(name) }
        member(.cod, &out, same: { Self.same($0.cod, cod) }) { out in out.key("cod"); cod.write(into: &out) }
    }

    // What the writer writes the same bytes for: numbers the same bit for bit, strings byte for byte (`==` takes `-0`
    // for `0` and compares strings by canonical equivalence).

    private static func same(_ a: Double, _ b: Double) -> Bool { a.bitPattern == b.bitPattern }

    private static func same(_ a: Double?, _ b: Double?) -> Bool { a?.bitPattern == b?.bitPattern }

    private static func same(_ a: String, _ b: String) -> Bool {
        var a = a, b = b
        return a.withUTF8 { x in
            b.withUTF8 { y in
                guard x.count == y.count, let p = x.baseAddress, let q = y.baseAddress else { return x.count == y.count }
                return memcmp(p, q, x.count) == 0
            }
        }
    }

    private static func same(_ a: String?, _ b: String?) -> Bool {
        guard let a, let b else { return a == nil && b == nil }
        return same(a, b)
    }

    private static func same(_ a: OWMWeatherEntry, _ b: OWMWeatherEntry) -> Bool {
        a.id == b.id && same(a.main, b.main) && same(a.description, b.description) && same(a.icon, b.icon)
    }

    private static func same(_ a: OWMMain, _ b: OWMMain) -> Bool {
        same(a.temp, b.temp) && same(a.feelsLike, b.feelsLike) && same(a.tempMin, b.tempMin) && same(a.tempMax, b.tempMax)
            && a.pressure == b.pressure && a.humidity == b.humidity && a.seaLevel == b.seaLevel && a.grndLevel == b.grndLevel
            && same(a.tempKf, b.tempKf)
    }

    private static func same(_ a: OWMPrecipitation?, _ b: OWMPrecipitation?) -> Bool {
        guard let a, let b else { return a == nil && b == nil }
        return same(a.oneHour, b.oneHour) && same(a.threeHours, b.threeHours)
    }

    private static func same(_ a: OWMCode, _ b: OWMCode) -> Bool {
        switch (a, b) {
        case let (.number(x), .number(y)): x == y
        case let (.text(x), .text(y)): same(x, y)
        default: false
        }
    }

    /// The value ``init(compactJSON:)`` reads back from ``compactJSON()``, without the bytes: `nil` when the body
    /// cannot be written (a number not finite), otherwise the body with every `-0` as `0` — the one change writing
    /// makes (``DecimalText/json(_:)``: every other number is written in its round-trip form, strings and integers
    /// exactly). The typed in-process path of a run gives the client this value instead of the bytes.
    var readBack: OWMCurrentWeather? {
        var body = self
        guard Self.wire(&body.coord.lon), Self.wire(&body.coord.lat), Self.wire(&body.main.temp), Self.wire(&body.main.feelsLike),
              Self.wire(&body.main.tempMin), Self.wire(&body.main.tempMax), Self.wire(&body.main.tempKf),
              Self.wire(&body.wind.speed), Self.wire(&body.wind.gust),
              Self.wire(&body.rain, \.oneHour), Self.wire(&body.rain, \.threeHours),
              Self.wire(&body.snow, \.oneHour), Self.wire(&body.snow, \.threeHours) else { return nil }
        return body
    }

    /// `value` as its JSON text reads back; `false` when it has none.
    private static func wire(_ value: inout Double) -> Bool {
        guard value.isFinite else { return false }
        if value == 0 { value = 0 }
        return true
    }

    private static func wire(_ value: inout Double?) -> Bool {
        guard var number = value else { return true }
        defer { value = number }
        return wire(&number)
    }

    private static func wire(_ block: inout OWMPrecipitation?, _ amount: WritableKeyPath<OWMPrecipitation, Double?>) -> Bool {
        guard block != nil else { return true }
        return wire(&block![keyPath: amount])
    }

    /// Reads a current-weather body the way `JSONDecoder` would, or gives up.
    ///
    /// Accepts strict JSON with any whitespace, key order and unknown keys (skipped, but checked to be
    /// valid JSON), `null` for optional fields, strings without escapes, integers without fraction or
    /// exponent for integer fields. Returns `nil` — decode with `JSONDecoder` instead — for anything else:
    /// malformed JSON, a missing field, a wrong type, a repeated key, a string escape, `-0`, a number out
    /// of range.
    /// - Parameter bytes: the UTF-8 body.
    init?(compactJSON bytes: UnsafeRawBufferPointer) {
        var members: [CompactJSONReader.Member] = []
        guard let value = Self.read(bytes, after: nil, UnsafeRawBufferPointer(start: nil, count: 0), members: &members) else { return nil }
        self = value
    }

    /// A body read by hand, kept so that the next answer to the same request is read against it
    /// (``read(_:after:)``): its bytes, its top-level members and its value.
    /// A class: a body is large, and handing it on must copy nothing.
    final class ReadBody: Sendable {
        let bytes: Data
        let members: [CompactJSONReader.Member]
        let value: OWMCurrentWeather

        init(bytes: Data, members: [CompactJSONReader.Member], value: OWMCurrentWeather) {
            self.bytes = bytes
            self.members = members
            self.value = value
        }
    }

    /// Reads `body` as ``init(compactJSON:)`` does, against the body read before it (`earlier`): a top-level member
    /// whose bytes are those of the earlier body's member at the same place is not read again, its field is taken
    /// from the earlier value (a reader's value is a function of the bytes it reads; the repeated-key check still
    /// covers every member). Answers to one request differ in a few members an hour (`main`, `dt`), not in `coord`,
    /// `weather`, `sys` or the city.
    /// - Returns: the body read (its value, and what the next body is read against), or `nil` as ``init(compactJSON:)``.
    static func read(_ body: Data, after earlier: ReadBody?) -> ReadBody? {
        var members: [CompactJSONReader.Member] = []
        members.reserveCapacity(16)
        let value = body.withUnsafeBytes { bytes in
            guard let earlier else { return read(bytes, after: nil, UnsafeRawBufferPointer(start: nil, count: 0), members: &members) }
            return earlier.bytes.withUnsafeBytes { earlierBytes in read(bytes, after: earlier, earlierBytes, members: &members) }
        }
        return value.map { ReadBody(bytes: body, members: members, value: $0) }
    }

    /// The reading of ``init(compactJSON:)`` and ``read(_:after:)``: `members` is set to the body's top-level members.
    private static func read(_ bytes: UnsafeRawBufferPointer, after earlier: ReadBody?, _ earlierBytes: UnsafeRawBufferPointer,
                             members: inout [CompactJSONReader.Member]) -> OWMCurrentWeather? {
        var reader = CompactJSONReader(bytes)
        var coord: OWMCoordinates?, weather: [OWMWeatherEntry]?, base: String?, main: OWMMain?, visibility: Int?
        var wind: OWMWind?, clouds: OWMClouds?, rain: OWMPrecipitation?, snow: OWMPrecipitation?, dt: Int64?
        var sys: OWMSys?, timezone: Int?, id: Int?, name: String?, cod: OWMCode?
        let complete = reader.readObject(earlier: earlierBytes, earlier?.members ?? [], members: &members) { key in
            // The member is the earlier body's member at this place: its field as read then (an unknown key was skipped).
            guard let earlier else { return }
            switch key {
            case "coord": coord = earlier.value.coord
            case "weather": weather = earlier.value.weather
            case "base": base = earlier.value.base
            case "main": main = earlier.value.main
            case "visibility": visibility = earlier.value.visibility
            case "wind": wind = earlier.value.wind
            case "clouds": clouds = earlier.value.clouds
            case "rain": rain = earlier.value.rain
            case "snow": snow = earlier.value.snow
            case "dt": dt = earlier.value.dt
            case "sys": sys = earlier.value.sys
            case "timezone": timezone = earlier.value.timezone
            case "id": id = earlier.value.id
            case "name": name = earlier.value.name
            case "cod": cod = earlier.value.cod
            default: break
            }
        } _: { reader, key in
            switch key {
            case "coord": coord = OWMCoordinates(reading: &reader); return coord != nil
            case "weather": weather = reader.readArray { OWMWeatherEntry(reading: &$0) }; return weather != nil
            case "base": base = reader.readString(); return base != nil
            case "main": main = OWMMain(reading: &reader); return main != nil
            case "visibility": return reader.readOptional(&visibility) { $0.readInteger() }
            case "wind": wind = OWMWind(reading: &reader); return wind != nil
            case "clouds": clouds = OWMClouds(reading: &reader); return clouds != nil
            case "rain": return reader.readOptional(&rain) { OWMPrecipitation(reading: &$0) }
            case "snow": return reader.readOptional(&snow) { OWMPrecipitation(reading: &$0) }
            case "dt": dt = reader.readInteger(); return dt != nil
            case "sys": sys = OWMSys(reading: &reader); return sys != nil
            case "timezone": timezone = reader.readInteger(); return timezone != nil
            case "id": id = reader.readInteger(); return id != nil
            case "name": name = reader.readString(); return name != nil
            case "cod": cod = OWMCode(reading: &reader); return cod != nil
            default: return reader.skipValue()
            }
        }
        guard complete, reader.isAtEnd, let coord, let weather, let base, let main, let wind, let clouds, let dt, let sys,
              let timezone, let id, let name, let cod else { return nil }
        return OWMCurrentWeather(coord: coord, weather: weather, base: base, main: main, visibility: visibility, wind: wind,
                                 clouds: clouds, rain: rain, snow: snow, dt: dt, sys: sys, timezone: timezone, id: id, name: name,
                                 cod: cod)
    }
}

extension OWMMain {
    /// Writes the block in wire order (absent optionals left out).
    func write(into out: inout CompactJSONWriter) {
        out.beginObject()
        out.key("temp"); out.number(temp)
        out.key("feels_like"); out.number(feelsLike)
        out.key("temp_min"); out.number(tempMin)
        out.key("temp_max"); out.number(tempMax)
        out.key("pressure"); out.integer(pressure)
        out.key("humidity"); out.integer(humidity)
        if let seaLevel { out.key("sea_level"); out.integer(seaLevel) }
        if let grndLevel { out.key("grnd_level"); out.integer(grndLevel) }
        if let tempKf { out.key("temp_kf"); out.number(tempKf) }
        out.endObject()
    }

    /// Reads the block as `JSONDecoder` would, or `nil` (see ``OWMCurrentWeather/init(compactJSON:)``).
    init?(reading reader: inout CompactJSONReader) {
        var temp: Double?, feelsLike: Double?, tempMin: Double?, tempMax: Double?, pressure: Int?, humidity: Int?
        var seaLevel: Int?, grndLevel: Int?, tempKf: Double?
        let complete = reader.readObject { reader, key in
            switch key {
            case "temp": temp = reader.readDouble(); return temp != nil
            case "feels_like": feelsLike = reader.readDouble(); return feelsLike != nil
            case "temp_min": tempMin = reader.readDouble(); return tempMin != nil
            case "temp_max": tempMax = reader.readDouble(); return tempMax != nil
            case "pressure": pressure = reader.readInteger(); return pressure != nil
            case "humidity": humidity = reader.readInteger(); return humidity != nil
            case "sea_level": return reader.readOptional(&seaLevel) { $0.readInteger() }
            case "grnd_level": return reader.readOptional(&grndLevel) { $0.readInteger() }
            case "temp_kf": return reader.readOptional(&tempKf) { $0.readDouble() }
            default: return reader.skipValue()
            }
        }
        guard complete, let temp, let feelsLike, let tempMin, let tempMax, let pressure, let humidity else { return nil }
        self.init(temp: temp, feelsLike: feelsLike, tempMin: tempMin, tempMax: tempMax, pressure: pressure,
                  humidity: humidity, seaLevel: seaLevel, grndLevel: grndLevel, tempKf: tempKf)
    }
}

extension OWMPrecipitation {
    /// Writes the block (`{}` when both amounts are absent, as the encoder does).
    func write(into out: inout CompactJSONWriter) {
        out.beginObject()
        if let oneHour { out.key("1h"); out.number(oneHour) }
        if let threeHours { out.key("3h"); out.number(threeHours) }
        out.endObject()
    }

    /// Reads the block as `JSONDecoder` would, or `nil`.
    init?(reading reader: inout CompactJSONReader) {
        var oneHour: Double?, threeHours: Double?
        let complete = reader.readObject { reader, key in
            switch key {
            case "1h": return reader.readOptional(&oneHour) { $0.readDouble() }
            case "3h": return reader.readOptional(&threeHours) { $0.readDouble() }
            default: return reader.skipValue()
            }
        }
        guard complete else { return nil }
        self.init(oneHour: oneHour, threeHours: threeHours)
    }
}

extension OWMCoordinates {
    /// Reads the block as `JSONDecoder` would, or `nil`.
    init?(reading reader: inout CompactJSONReader) {
        var lon: Double?, lat: Double?
        let complete = reader.readObject { reader, key in
            switch key {
            case "lon": lon = reader.readDouble(); return lon != nil
            case "lat": lat = reader.readDouble(); return lat != nil
            default: return reader.skipValue()
            }
        }
        guard complete, let lon, let lat else { return nil }
        self.init(lon: lon, lat: lat)
    }
}

extension OWMWeatherEntry {
    /// Reads one entry as `JSONDecoder` would, or `nil`.
    init?(reading reader: inout CompactJSONReader) {
        var id: Int?, main: String?, description: String?, icon: String?
        let complete = reader.readObject { reader, key in
            switch key {
            case "id": id = reader.readInteger(); return id != nil
            case "main": main = reader.readString(); return main != nil
            case "description": description = reader.readString(); return description != nil
            case "icon": icon = reader.readString(); return icon != nil
            default: return reader.skipValue()
            }
        }
        guard complete, let id, let main, let description, let icon else { return nil }
        self.init(id: id, main: main, description: description, icon: icon)
    }
}

extension OWMWind {
    /// Reads the block as `JSONDecoder` would, or `nil`.
    init?(reading reader: inout CompactJSONReader) {
        var speed: Double?, deg: Int?, gust: Double?
        let complete = reader.readObject { reader, key in
            switch key {
            case "speed": speed = reader.readDouble(); return speed != nil
            case "deg": deg = reader.readInteger(); return deg != nil
            case "gust": return reader.readOptional(&gust) { $0.readDouble() }
            default: return reader.skipValue()
            }
        }
        guard complete, let speed, let deg else { return nil }
        self.init(speed: speed, deg: deg, gust: gust)
    }
}

extension OWMClouds {
    /// Reads the block as `JSONDecoder` would, or `nil`.
    init?(reading reader: inout CompactJSONReader) {
        var all: Int?
        let complete = reader.readObject { reader, key in
            switch key {
            case "all": all = reader.readInteger(); return all != nil
            default: return reader.skipValue()
            }
        }
        guard complete, let all else { return nil }
        self.init(all: all)
    }
}

extension OWMSys {
    /// Reads the block as `JSONDecoder` would, or `nil`.
    init?(reading reader: inout CompactJSONReader) {
        var country: String?, sunrise: Int64?, sunset: Int64?
        let complete = reader.readObject { reader, key in
            switch key {
            case "country": return reader.readOptional(&country) { $0.readString() }
            case "sunrise": sunrise = reader.readInteger(); return sunrise != nil
            case "sunset": sunset = reader.readInteger(); return sunset != nil
            default: return reader.skipValue()
            }
        }
        guard complete, let sunrise, let sunset else { return nil }
        self.init(country: country, sunrise: sunrise, sunset: sunset)
    }
}

extension OWMCode {
    /// Writes the form held: `401` or `"404"`.
    func write(into out: inout CompactJSONWriter) {
        switch self {
        case .number(let n): out.integer(n)
        case .text(let s): out.string(s)
        }
    }

    /// Reads a number (an integer) or a string as ``init(from:)`` would, or `nil`.
    init?(reading reader: inout CompactJSONReader) {
        if reader.peek == UInt8(ascii: "\"") {
            guard let text = reader.readString() else { return nil }
            self = .text(text)
        } else {
            guard let number: Int = reader.readInteger() else { return nil }
            self = .number(number)
        }
    }
}
