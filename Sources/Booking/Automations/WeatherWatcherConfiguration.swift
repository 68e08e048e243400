/// The settings of the ``WeatherWatcher``: the scenario's `automations.weatherWatcher`.
public struct WeatherWatcherConfiguration: Hashable, Sendable {
    /// Heating is switched ON when the city is colder than this, OFF otherwise (°C); `nil` leaves heating alone.
    public var heatOnBelowC: Double?
    /// Cooling is switched ON when the city is warmer than this, OFF otherwise (°C); `nil` leaves cooling alone.
    public var coolOnAboveC: Double?
    /// The period of the runs, minutes (default 60).
    public var everyMinutes: Int
    /// The local minute (modulo `everyMinutes`) of each run (default 5: hourly at minute 5, as the original job).
    public var atMinute: Int

    /// Creates the settings.
    public init(heatOnBelowC: Double? = nil, coolOnAboveC: Double? = nil, everyMinutes: Int = 60, atMinute: Int = 5) {
        self.heatOnBelowC = heatOnBelowC
        self.coolOnAboveC = coolOnAboveC
        self.everyMinutes = everyMinutes
        self.atMinute = atMinute
    }
}
