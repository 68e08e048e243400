/// The fixed properties of a smart plug and what is plugged into it.
public struct SmartPlugConfiguration: Sendable, Hashable {
    /// Power drawn with the relay ON, W (the load plus the plug).
    public let loadW: Double
    /// Power drawn with the relay OFF, W.
    public let standbyW: Double
    /// Whether the relay starts ON.
    public let initiallyOn: Bool

    /// Validates and creates a configuration.
    /// - Throws: ``DevicesError`` `device.invalidParameter` for negative or non-finite power.
    public init(loadW: Double, standbyW: Double = 0.5, initiallyOn: Bool = false) throws(DevicesError) {
        try DevicesError.require(loadW, "loadW", unit: "W", "zero or more watts") { $0 >= 0 }
        try DevicesError.require(standbyW, "standbyW", unit: "W", "zero or more watts (0.3–2 W is typical)") { $0 >= 0 }
        self.loadW = loadW
        self.standbyW = standbyW
        self.initiallyOn = initiallyOn
    }
}
