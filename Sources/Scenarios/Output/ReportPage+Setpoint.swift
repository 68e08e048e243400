import Booking
import Reports
import Rules
import ScenarioFormat
import Simulation

extension ReportPage {
    /// The setpoint of each heating and cooling device of `listing` as the run commanded it, in time order,
    /// starting from the device's `setpointC`: the timeline's `command`/`update` steps to its setpoint Item, the
    /// rules' commands and updates to it (by either name, `flat-1/heating/setpoint` or `flat_1_heating_setpoint`)
    /// and the automations' `setpoint` actions for the listing. A command the device clamped or refused is drawn
    /// as commanded; the page labels the line so.
    /// - Parameters:
    ///   - steps: the run's steps as ``ScenarioResult/stepRecords`` gives them (indices into `scenario`'s timeline).
    ///   - automations: the automations' entries for `listing`, in the order recorded.
    ///   - rules: the rule runs the engine logged.
    static func commandedSetpoints(_ listing: ListingSpec, scenario: Scenario, steps: [(at: SimInstant, step: Int, failed: String?, note: String?)],
                                   automations: [AutomationLogEntry], rules: [RuleRun]) -> [(device: String, points: [(SimInstant, Double)])] {
        var devices: [(id: String, item: String, initial: Double, heats: Bool)] = []
        for device in listing.devices {
            switch device.kind {
            case .heating(_, let setpoint, _):
                devices.append((device.id, Names.ruleSide("\(listing.id)/\(device.id)/setpoint"), setpoint, true))
            case .cooling(_, _, let setpoint, _):
                devices.append((device.id, Names.ruleSide("\(listing.id)/\(device.id)/setpoint"), setpoint, false))
            case .smartPlug, .lock:
                continue
            }
        }
        guard !devices.isEmpty else { return [] }
        // (instant, kind, sequence) orders changes as the timeline orders events.
        var changes: [(at: SimInstant, order: Int, sequence: Int, device: Int, value: Double)] = []
        func device(ofItem item: Substring) -> Int? {
            let side = Names.ruleSide(String(item))
            return devices.firstIndex { $0.item == side }
        }
        for record in steps where record.failed == nil || record.failed?.hasPrefix("refused") == true {
            switch scenario.timeline[record.step].action {
            case .command(let item, let value), .update(let item, let value):
                if let d = device(ofItem: Substring(item)), let v = leadingNumber(Substring(value)) { changes.append((record.at, 0, record.step, d, v)) }
            default: continue
            }
        }
        for (offset, entry) in automations.enumerated() where entry.listing.rawValue == listing.id {
            guard let range = entry.action.range(of: "setpoint "), let v = leadingNumber(entry.action[range.upperBound...]) else { continue }
            // "heating setpoint 21.0 °C, switch ON" names its device; "setpoint 17.0 °C" (setback) is the heating's.
            let named = entry.action[..<range.lowerBound].split(separator: " ").joined(separator: " ")
            for (d, device) in devices.enumerated() where named.isEmpty ? device.heats : named == device.id {
                changes.append((entry.at, 1, offset, d, v))
            }
        }
        for (offset, run) in rules.enumerated() {
            for effect in run.effects {
                for arrow in [" ← ", " := "] {
                    guard let range = effect.range(of: arrow), let d = device(ofItem: effect[..<range.lowerBound]),
                          let v = leadingNumber(effect[range.upperBound...]) else { continue }
                    changes.append((run.at, 2, offset, d, v))
                }
            }
        }
        changes.sort { ($0.at, $0.order, $0.sequence) < ($1.at, $1.order, $1.sequence) }
        return devices.enumerated().map { index, device in
            var points = [(scenario.start, device.initial)]
            for change in changes where change.device == index && change.at >= scenario.start && change.at <= scenario.end {
                points.append((change.at, change.value))
            }
            return (device.id, points)
        }
    }

    /// The number a state or command text starts with (`21`, `17.5 °C`), or `nil`.
    static func leadingNumber(_ text: Substring) -> Double? {
        let trimmed = text.drop { $0 == " " || $0 == "\"" }
        return Double(trimmed.prefix { $0.isNumber || $0 == "." || $0 == "-" })
    }
}
