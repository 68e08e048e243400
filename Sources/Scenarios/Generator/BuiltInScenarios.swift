import ScenarioFormat
import Simulation

/// The scenarios built into the command line, as scenario JSON text, so `demo` and `bench` run
/// through the same decoder, world builder and runner as every scenario file (like
/// ``PortfolioGenerator``): `rental-twin demo` and the single-flat `rental-twin bench`.
public enum BuiltInScenarios {
    /// `demo`: one flat in Budapest at −2 °C with heating, a lamp on a plug and a lock; a guest
    /// stays every night 15:00 → 10:00, with a 3-hour preheat, a setback to 18 °C at check-out, the lamp in
    /// the evening and a night setpoint.
    /// - Parameter days: simulated days from 2026-01-09 (≥ 1).
    public static func demo(days: Int) -> String {
        let first = CivilDate(year: 2026, month: 1, day: 9) ?? CivilDate(daysSinceEpoch: 20_462)
        var steps = ["{ \"at\": \"\(first)T00:00\", \"command\": { \"item\": \"flat-1/heating/switch\", \"value\": \"ON\" } }"]
        for day in 0..<days {
            let date = first.adding(days: day), next = first.adding(days: day + 1)
            let id = "stay-\(day + 1)"
            steps += [
                "{ \"at\": \"\(first)T08:00\", \"book\": { \"id\": \"\(id)\", \"guest\": \"guest\", \"listing\": \"flat-1\", \"checkIn\": \"\(date)\", \"checkOut\": \"\(next)\", \"guests\": 2 } }",
                "{ \"at\": \"\(date)T15:00\", \"unlock\": { \"item\": \"flat-1/door/lock\", \"by\": \"guest\" } }",
                "{ \"at\": \"\(date)T15:02\", \"arrive\": { \"reservation\": \"\(id)\" } }",
                "{ \"at\": \"\(date)T18:00\", \"command\": { \"item\": \"flat-1/plug/switch\", \"value\": \"ON\" } }",
                "{ \"at\": \"\(date)T23:00\", \"command\": { \"item\": \"flat-1/plug/switch\", \"value\": \"OFF\" } }",
                "{ \"at\": \"\(date)T23:00\", \"command\": { \"item\": \"flat-1/heating/setpoint\", \"value\": \"20\" } }",
                "{ \"at\": \"\(next)T07:00\", \"command\": { \"item\": \"flat-1/heating/setpoint\", \"value\": \"21\" } }",
                "{ \"at\": \"\(next)T09:55\", \"depart\": { \"reservation\": \"\(id)\" } }",
                "{ \"at\": \"\(next)T10:00\", \"lock\": { \"item\": \"flat-1/door/lock\", \"by\": \"host\" } }",
            ]
        }
        return """
            {
              "version": 1,
              "name": "Demo: a flat in Budapest, a guest every night, \(days) day(s)",
              "seed": 42,
              "timeZone": "Europe/Budapest",
              "start": "\(first)T00:00",
              "end": "\(first.adding(days: days))T12:00",
              "weather": { "Budapest": { "constantC": -2 } },
              "users": [ { "id": "host", "name": "Hanna Host" }, { "id": "guest", "name": "Gabor Guest" } ],
              "listings": [
                { "id": "flat-1", "owner": "host", "name": "Danube view flat", "city": "Budapest", "country": "Hungary", "capacity": 3,
                  "checkInTime": "15:00", "checkOutTime": "10:00",
                  "thermal": { "uaWPerK": 80, "capacitanceKWhPerK": 2.3, "initialC": 19, "gainPerGuestW": 80 },
                  "devices": [
                    { "id": "heating", "type": "heating", "powerW": 4000, "setpointC": 21, "hysteresisK": 0.5 },
                    { "id": "plug", "type": "smartPlug", "loadW": 60, "standbyW": 0.5, "on": false },
                    { "id": "door", "type": "lock" }
                  ] }
              ],
              "automations": { "preheat": { "lead": "PT3H", "comfortC": 21 }, "setback": { "setpointC": 18 } },
              "timeline": [
                \(steps.joined(separator: ",\n    "))
              ],
              "expect": [ { "discomfort": { "listing": "flat-1" }, "atMostKh": \(days * 3) } ]
            }

            """
    }

    /// The single-flat `bench`: one flat, a heating thermostat switched ON at the start and
    /// regulating at 21 °C against a seeded diurnal outdoor temperature of 2 ± 5 °C, nothing else.
    /// - Parameter days: simulated days from 2026-01-01 (≥ 1).
    /// - Parameter watched: with the weather watcher (hourly at minute 5, heating ON below 15 °C, OFF otherwise).
    /// - Parameter extraMembers: top-level JSON members added as they are (each `"key": value,`).
    public static func heatedFlat(days: Int, watched: Bool = false, extraMembers: String = "") -> String {
        let first = CivilDate(year: 2026, month: 1, day: 1) ?? CivilDate(daysSinceEpoch: 20_454)
        let automations = (watched ? "\n  \"automations\": { \"weatherWatcher\": { \"heatOnBelowC\": 15 } }," : "") + extraMembers
        return """
            {
              "version": 1,
              "name": "Bench: one heated flat, \(days) day(s), diurnal outdoor 2 ± 5 °C (seed 42)\(watched ? ", weather watcher" : "")",
              "seed": 42,
              "timeZone": "Europe/Budapest",
              "start": "\(first)T00:00",
              "end": "\(first.adding(days: days))T00:00",
              "weather": { "Budapest": { "diurnal": { "meanC": 2, "amplitudeK": 5, "minAtHour": 5, "noiseK": 0.5 } } },
              "users": [ { "id": "host", "name": "Hanna Host" } ],
              "listings": [
                { "id": "flat-1", "owner": "host", "name": "Bench flat", "city": "Budapest", "country": "Hungary", "capacity": 2,
                  "thermal": { "uaWPerK": 80, "capacitanceKWhPerK": 2.3, "initialC": 20 },
                  "devices": [ { "id": "heating", "type": "heating", "powerW": 2000, "setpointC": 21, "hysteresisK": 0.5 } ] }
              ],\(automations)
              "timeline": [ { "at": "\(first)T00:00", "command": { "item": "flat-1/heating/switch", "value": "ON" } } ],
              "expect": [ { "energy": { "listing": "flat-1", "device": "heating" }, "atLeastKWh": 0 } ]
            }

            """
    }
}
