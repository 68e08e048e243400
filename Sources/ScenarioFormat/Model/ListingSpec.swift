import Simulation

/// A flat with its thermal properties and devices, as written under `listings`.
public struct ListingSpec: Sendable {
    public var id: String
    public var owner: String
    public var name: String
    public var city: String
    public var country: String
    public var capacity: Int
    public var checkInTime: LocalTime
    public var checkOutTime: LocalTime
    public var thermal: ThermalSpec
    /// Devices in file order.
    public var devices: [DeviceSpec]
    /// Booking-platform calendars the twin syncs reservations from (`calendars`), in file order.
    public var calendars: [CalendarFeedSpec] = []
}

/// One iCalendar file a listing syncs from, as a channel manager polls an Airbnb or Booking.com
/// export: the twin sees an event only at the first sync after it appeared in the feed.
public struct CalendarFeedSpec: Sendable {
    /// The path as the scenario writes it (relative to the scenario file).
    public var file: String
    /// How often the twin reads the calendar (first at the scenario's start).
    public var syncEvery: SimDuration
    /// The file's events, in file order.
    public var events: [ICalendarEvent]
}

/// The 1R1C parameters of a flat (PHYSICS.md).
public struct ThermalSpec: Sendable {
    public var uaWPerK: Double
    public var capacitanceKWhPerK: Double
    /// Room temperature at `start`, °C (default 20).
    public var initialC: Double
    /// Heat per guest present, W (default 80).
    public var gainPerGuestW: Double
    /// Comfort line for discomfort, °C (default 20).
    public var comfortC: Double
}

/// One smart device of a listing.
public struct DeviceSpec: Sendable {
    /// The device types of the format.
    public enum Kind: Sendable {
        case heating(powerW: Double, setpointC: Double, hysteresisK: Double)
        case cooling(powerW: Double, cop: Double, setpointC: Double, hysteresisK: Double)
        case smartPlug(loadW: Double, standbyW: Double, on: Bool)
        case lock

        /// The `type` string of the file.
        public var typeName: String {
            switch self {
            case .heating: "heating"
            case .cooling: "cooling"
            case .smartPlug: "smartPlug"
            case .lock: "lock"
            }
        }

        /// The channel ids of this device type (SCENARIO-FORMAT.md's device table).
        public var channels: [String] {
            switch self {
            case .heating, .cooling: ["switch", "setpoint", "temperature", "power", "energy"]
            case .smartPlug: ["switch", "power", "energy", "temperature"]
            case .lock: ["lock", "door", "battery"]
            }
        }
    }

    public var id: String
    public var kind: Kind
    /// Where the device was written, e.g. `listings[0].devices[1]`.
    public var path: String
}

/// Which automations run (omitted ones are off) and the lock access buffers.
public struct AutomationsSpec: Sendable {
    public struct WeatherWatcher: Sendable {
        public var heatOnBelowC: Double?
        public var coolOnAboveC: Double?
        public var everyMinutes: Int
        public var atMinute: Int
    }
    public struct Preheat: Sendable {
        /// `fixed` (start `lead` before check-in) or `smart` (the flat's thermal model and the forecast).
        public enum Mode: String, Sendable { case fixed, smart }
        public var mode: Mode
        public var lead: SimDuration
        public var comfortC: Double
    }
    public struct Setback: Sendable {
        public var setpointC: Double
    }

    public var weatherWatcher: WeatherWatcher?
    public var preheat: Preheat?
    public var setback: Setback?
    public var earlyCheckIn: SimDuration
    public var lateCheckOut: SimDuration
}
