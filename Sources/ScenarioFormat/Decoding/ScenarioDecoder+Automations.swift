import Devices
import Booking
import Foundation
import Reports
import Simulation
import Weather

/// `automations`: the built-in weather watcher, preheat and setback, and the lock access window.
extension ScenarioDecoder {
    static func decodeAutomations(_ field: Field?) -> AutomationsSpec? {
        var spec = AutomationsSpec(weatherWatcher: nil, preheat: nil, setback: nil, earlyCheckIn: .zero, lateCheckOut: .zero)
        guard let field else { return spec }
        guard let o = field.object(["weatherWatcher", "preheat", "setback", "lockAccess"]) else { return nil }
        var ok = true
        if let f = o.optional("weatherWatcher") {
            if let w = f.object(["heatOnBelowC", "coolOnAboveC", "everyMinutes", "atMinute"]) {
                let heat = w.optional("heatOnBelowC")?.number
                let cool = w.optional("coolOnAboveC")?.number
                let every = w.optional("everyMinutes").map { $0.integer } ?? 60
                let at = w.optional("atMinute").map { $0.integer } ?? 5
                if heat == nil && cool == nil {
                    f.problem("gives neither heatOnBelowC nor coolOnAboveC, so it would never switch anything.",
                              hint: "add \"heatOnBelowC\": 15 and/or \"coolOnAboveC\": 26.")
                }
                if let every, let at {
                    do { try LocalCalendar.validateRecurrence(everyMinutes: every, atMinute: at) } catch { f.problem(error.message); ok = false }
                    spec.weatherWatcher = .init(heatOnBelowC: heat, coolOnAboveC: cool, everyMinutes: every, atMinute: at)
                } else { ok = false }
            } else { ok = false }
        }
        if let f = o.optional("preheat") {
            if let p = f.object(["lead", "comfortC", "mode"]) {
                let lead = p.optional("lead").map { $0.duration } ?? .hours(2)
                let comfort = p.optional("comfortC").map { $0.number(in: 5...35, unit: " °C") } ?? 21
                var mode = AutomationsSpec.Preheat.Mode.fixed
                if let m = p.optional("mode"), let text = m.string {
                    if let value = AutomationsSpec.Preheat.Mode(rawValue: text) { mode = value } else {
                        m.problem("is \(UserText.quoted(text)) but must be \"fixed\" (start `lead` before check-in) or \"smart\" (use the flat's thermal model).")
                        ok = false
                    }
                }
                if let lead, let comfort { spec.preheat = .init(mode: mode, lead: lead, comfortC: comfort) } else { ok = false }
            } else { ok = false }
        }
        if let f = o.optional("setback") {
            if let s = f.object(["setpointC"]), let value = s.optional("setpointC").map({ $0.number(in: 5...35, unit: " °C") }) ?? 16 {
                spec.setback = .init(setpointC: value)
            } else { ok = false }
        }
        if let f = o.optional("lockAccess") {
            if let l = f.object(["earlyCheckIn", "lateCheckOut"]),
               let early = l.optional("earlyCheckIn").map({ $0.duration }) ?? .zero,
               let late = l.optional("lateCheckOut").map({ $0.duration }) ?? .zero {
                spec.earlyCheckIn = early
                spec.lateCheckOut = late
            } else { ok = false }
        }
        return ok ? spec : nil
    }
}
