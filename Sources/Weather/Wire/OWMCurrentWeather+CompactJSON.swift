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
        var out = CompactJSONWriter()
        out.beginObject()
        out.key("coord")
        out.beginObject()
        out.key("lon"); out.number(coord.lon)
        out.key("lat"); out.number(coord.lat)
        out.endObject()
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
        out.key("base"); out.string(base)
        out.key("main")
        main.write(into: &out)
        if let visibility { out.key("visibility"); out.integer(visibility) }
        out.key("wind")
        out.beginObject()
        out.key("speed"); out.number(wind.speed)
        out.key("deg"); out.integer(wind.deg)
        if let gust = wind.gust { out.key("gust"); out.number(gust) }
        out.endObject()
        out.key("clouds")
        out.beginObject()
        out.key("all"); out.integer(clouds.all)
        out.endObject()
        if let rain { out.key("rain"); rain.write(into: &out) }
        if let snow { out.key("snow"); snow.write(into: &out) }
        out.key("dt"); out.integer(dt)
        out.key("sys")
        out.beginObject()
        if let country = sys.country { out.key("country"); out.string(country) }
        out.key("sunrise"); out.integer(sys.sunrise)
        out.key("sunset"); out.integer(sys.sunset)
        out.endObject()
        out.key("timezone"); out.integer(timezone)
        out.key("id"); out.integer(id)
        out.key("name"); out.string(name)
        out.key("cod")
        cod.write(into: &out)
        out.endObject()
        return out.data()
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
