import Foundation
import Reports
import ScenarioFormat
import Simulation

extension ScenarioResult {
    /// Simulated seconds from the scenario's start to its end.
    public var simulatedSeconds: Double { (scenario.end - scenario.start).seconds }

    /// Energy of a listing's device (or of the whole listing with `device` nil) over the whole run,
    /// kWh; `nil` when the ledger has no such meter.
    public func energyKWh(listing: String, device: String?) -> Double? {
        try? ledger.energyKWh(listing: listing, device: device, from: scenario.start, to: scenario.end)
    }
}

/// Figures as the command line prints them: fixed decimals, `.` as separator, any locale.
public enum Figures {
    /// `value` with `digits` decimals (`"13318.443"`); `nan`/`inf` as such.
    public static func decimal(_ value: Double, _ digits: Int) -> String {
        guard value.isFinite else { return value.isNaN ? "nan" : (value > 0 ? "inf" : "-inf") }
        return String(format: "%.\(digits)f", value)
    }
}
