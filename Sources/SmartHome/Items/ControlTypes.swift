import Foundation
import Simulation

/// openHAB's `UpDownType` (a Rollershutter command and state: UP is 0 %, DOWN is 100 %).
public enum UpDown: String, Sendable, Hashable {
    case up = "UP"
    case down = "DOWN"
}

/// openHAB's `StopMoveType` (a Rollershutter command).
public enum StopMove: String, Sendable, Hashable {
    case stop = "STOP"
    case move = "MOVE"
}

/// openHAB's `PlayPauseType` (a Player's state and command).
public enum PlayPause: String, Sendable, Hashable {
    case play = "PLAY"
    case pause = "PAUSE"
}

/// openHAB's `RewindFastforwardType` (a Player's state and command).
public enum RewindFastforward: String, Sendable, Hashable {
    case rewind = "REWIND"
    case fastforward = "FASTFORWARD"
}

/// openHAB's `NextPreviousType` (a Player command).
public enum NextPrevious: String, Sendable, Hashable {
    case next = "NEXT"
    case previous = "PREVIOUS"
}

/// openHAB's `HSBType`: hue 0…360, saturation and brightness 0…100, printed `h,s,b`.
public struct HSB: Sendable, Hashable, CustomStringConvertible {
    public let hue: DecimalNumber
    public let saturation: DecimalNumber
    public let brightness: DecimalNumber

    public init(hue: DecimalNumber, saturation: DecimalNumber, brightness: DecimalNumber) {
        self.hue = hue
        self.saturation = saturation
        self.brightness = brightness
    }

    /// Parses `h,s,b` as `HSBType(String)`: three numbers, hue within 0…360, the others within 0…100.
    public init?(parsing text: String) {
        let parts = text.split(separator: ",", omittingEmptySubsequences: false)
            .map { $0.trimmingCharacters(in: .whitespaces) }
        guard parts.count == 3, let h = DecimalNumber(parsing: parts[0]), let s = DecimalNumber(parsing: parts[1]),
              let b = DecimalNumber(parsing: parts[2]),
              (0...360).contains(h.value), (0...100).contains(s.value), (0...100).contains(b.value) else { return nil }
        self.init(hue: h, saturation: s, brightness: b)
    }

    public var description: String { "\(hue.text),\(saturation.text),\(brightness.text)" }
}

/// openHAB's `PointType`: latitude, longitude and an optional altitude, printed `lat,lon[,alt]`.
public struct GeoPoint: Sendable, Hashable, CustomStringConvertible {
    public let latitude: DecimalNumber
    public let longitude: DecimalNumber
    public let altitude: DecimalNumber?

    /// Parses `lat,lon` or `lat,lon,alt` (latitude within ±90, longitude within ±180).
    public init?(parsing text: String) {
        let parts = text.split(separator: ",", omittingEmptySubsequences: false)
            .map { DecimalNumber(parsing: $0.trimmingCharacters(in: .whitespaces)) }
        guard parts.count == 2 || parts.count == 3, let lat = parts[0], let lon = parts[1],
              (-90...90).contains(lat.value), (-180...180).contains(lon.value) else { return nil }
        if parts.count == 3 { guard parts[2] != nil else { return nil } }
        latitude = lat
        longitude = lon
        altitude = parts.count == 3 ? parts[2] : nil
    }

    public var description: String {
        "\(latitude.text),\(longitude.text)" + (altitude.map { ",\($0.text)" } ?? "")
    }
}
