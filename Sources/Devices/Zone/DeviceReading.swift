/// A snapshot of what a zone device would report on its channels.
public struct DeviceReading: Sendable, Hashable {
    /// The switch (thermostat enabled, or plug relay).
    public var isOn: Bool
    /// The setpoint, °C (thermostats only).
    public var setpointC: Double?
    /// The room temperature as last reported (rounded to 0.1 K), °C.
    public var reportedTemperatureC: Double
    /// Electric power now, W.
    public var powerW: Double
    /// Electric energy since the start, kWh (exact).
    public var energyKWh: Double
}

/// Receives a device's reading whenever its zone changes; the Thing handlers implement it.
public protocol ZoneDeviceObserver: Actor {
    /// The device's channels may have changed.
    func zoneDidUpdate(_ reading: DeviceReading) async

    /// The same news, as the zone delivers it: called on the zone's executor (`nonisolated(nonsending)`).
    /// The default enters the observer through ``zoneDidUpdate(_:)``; an observer that keeps what it
    /// reports behind a lock can handle it in place and spare the zone a hop per device.
    nonisolated(nonsending) func zoneDidUpdateWithoutHop(_ reading: DeviceReading) async
}

extension ZoneDeviceObserver {
    /// Enters the observer and calls ``zoneDidUpdate(_:)``.
    public nonisolated(nonsending) func zoneDidUpdateWithoutHop(_ reading: DeviceReading) async {
        await zoneDidUpdate(reading)
    }
}
