import Simulation

/// The settings of ``Preheat``: the scenario's `automations.preheat`.
public struct PreheatConfiguration: Hashable, Sendable {
    /// How the start time is chosen.
    public enum Mode: Hashable, Sendable {
        /// Start a fixed time before the check-in moment, as commercial tools do.
        case fixed(lead: SimDuration)
        /// Start as late as the flat's own thermal model and the weather forecast allow; listings
        /// without a model (or plans that cannot be made) use `fallbackLead`.
        case smart(models: [ListingID: PreheatModel], fallbackLead: SimDuration)
    }

    /// Fixed lead or smart.
    public var mode: Mode
    /// The temperature the flat should have at check-in, °C (the heating setpoint preheat sets).
    public var comfortC: Double
    /// Smart mode: how long before check-in the plan is made (default 24 h; at booking if later).
    public var planningHorizon: SimDuration
    /// Smart mode: how much earlier than the computed latest start the heating is switched on
    /// (default 10 min) — covers the 0.1 K resolution of the temperature Item and small model errors,
    /// at the price of reaching comfort that much early.
    public var startMargin: SimDuration

    /// Creates the settings.
    public init(mode: Mode, comfortC: Double, planningHorizon: SimDuration = .hours(24), startMargin: SimDuration = .minutes(10)) {
        self.mode = mode
        self.comfortC = comfortC
        self.planningHorizon = planningHorizon
        self.startMargin = startMargin
    }

    /// Fixed mode: switch heating on `lead` before check-in.
    public static func fixed(lead: SimDuration, comfortC: Double) -> PreheatConfiguration {
        PreheatConfiguration(mode: .fixed(lead: lead), comfortC: comfortC)
    }

    /// Smart mode with per-listing thermal models.
    public static func smart(models: [ListingID: PreheatModel], comfortC: Double, fallbackLead: SimDuration = .hours(2),
                             planningHorizon: SimDuration = .hours(24), startMargin: SimDuration = .minutes(10)) -> PreheatConfiguration {
        PreheatConfiguration(mode: .smart(models: models, fallbackLead: fallbackLead), comfortC: comfortC,
                             planningHorizon: planningHorizon, startMargin: startMargin)
    }
}
