import SmartHome

/// A snapshot of what a zone device would report on its channels.
public struct DeviceReading: Sendable, Hashable {
    /// The switch (thermostat enabled, or plug relay).
    public var isOn: Bool
    /// The setpoint, °C (thermostats only).
    public var setpointC: Double?
    /// The room temperature as last reported (rounded to 0.1 K), °C.
    public var reportedTemperatureC: Double { didSet { reportedTemperature = DeviceChannel.temperature(reportedTemperatureC) } }
    /// The temperature channels' state for ``reportedTemperatureC`` (`21.3 °C`): the zone hands out the one it
    /// made when the temperature last changed, rather than each of its devices making it again.
    public private(set) var reportedTemperature: State
    /// Electric power now, W.
    public var powerW: Double
    /// Electric energy since the start, kWh (exact).
    public var energyKWh: Double

    /// A reading; `reportedTemperature` is `DeviceChannel.temperature(reportedTemperatureC)`, made before.
    init(isOn: Bool, setpointC: Double?, reportedTemperatureC: Double, reportedTemperature: State, powerW: Double, energyKWh: Double) {
        self.isOn = isOn
        self.setpointC = setpointC
        self.reportedTemperatureC = reportedTemperatureC
        self.reportedTemperature = reportedTemperature
        self.powerW = powerW
        self.energyKWh = energyKWh
    }
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
