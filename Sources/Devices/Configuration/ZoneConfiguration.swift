import Physics

/// A listing's thermal zone: its 1R1C parameters, starting temperature and guest heat.
public struct ZoneConfiguration: Sendable, Hashable {
    /// `UA` and `C`.
    public let parameters: ZoneParameters
    /// The room temperature when the simulation starts, °C.
    public let initialC: Double
    /// Sensible heat per guest present, W.
    public let gainPerGuestW: Double
    /// The comfort line for discomfort (degree-hours below it while guests are present), °C.
    public let comfortC: Double

    /// Validates and creates a configuration.
    /// - Throws: ``DevicesError`` `device.invalidParameter` for a non-finite start or comfort temperature or
    ///   a negative guest gain (UA and C are checked by `ZoneParameters`).
    public init(parameters: ZoneParameters, initialC: Double = 20, gainPerGuestW: Double = 80,
                comfortC: Double = 20) throws(DevicesError) {
        try DevicesError.require(initialC, "initialC", unit: "°C", "a temperature") { _ in true }
        try DevicesError.require(comfortC, "comfortC", unit: "°C", "a temperature") { _ in true }
        try DevicesError.require(gainPerGuestW, "gainPerGuestW", unit: "W", "zero or more watts (80 W is typical)") { $0 >= 0 }
        self.parameters = parameters
        self.initialC = initialC
        self.gainPerGuestW = gainPerGuestW
        self.comfortC = comfortC
    }
}
