import ScenarioFormat
import Simulation

/// Generates the benchmark scenario: a portfolio of flats, each with heating, cooling, a plug and a
/// lock, a year (or any number of days) of diurnal weather, and a seeded booking calendar at about
/// the requested occupancy — as scenario JSON text, so the benchmark exercises the same decoder,
/// world builder and runner as every hand-written scenario.
public enum PortfolioGenerator {
    /// Cities the flats are spread over (all in the built-in gazetteer and in one time zone family).
    static let cities: [(name: String, country: String, meanC: Double)] = [
        ("Budapest", "Hungary", 11), ("Vienna", "Austria", 10.5), ("Prague", "Czechia", 9.5), ("Warsaw", "Poland", 8.5),
    ]

    /// The scenario text.
    /// - Parameters:
    ///   - flats: number of listings (≥ 1).
    ///   - days: simulated days from 2026-01-01 (≥ 1).
    ///   - occupancy: the share of nights booked, 0…0.95 (about 0.7 in the benchmark).
    ///   - seed: seeds the calendar and the weather noise.
    public static func json(flats: Int, days: Int, occupancy: Double = 0.7, seed: UInt64 = 1) -> String {
        var random = SplitMix64.stream(seed: seed, named: "portfolio-calendar")
        let firstDay = CivilDate(year: 2026, month: 1, day: 1) ?? CivilDate(daysSinceEpoch: 20_454)
        let end = firstDay.adding(days: days)
        var lines: [String] = []
        lines.append("{")
        lines.append("  \"version\": 1,")
        lines.append("  \"name\": \"Generated portfolio: \(flats) flats, \(days) days, \(Int((occupancy * 100).rounded())) % occupancy\",")
        lines.append("  \"seed\": \(seed),")
        lines.append("  \"timeZone\": \"Europe/Budapest\",")
        lines.append("  \"start\": \"\(firstDay)T00:00\",")
        lines.append("  \"end\": \"\(end)T00:00\",")
        let used = cities.prefix(min(cities.count, flats))
        lines.append("  \"weather\": {")
        lines.append(used.map { "    \"\($0.name)\": { \"diurnal\": { \"meanC\": \($0.meanC), \"amplitudeK\": 9, \"minAtHour\": 5, \"noiseK\": 0.8 } }" }
            .joined(separator: ",\n"))
        lines.append("  },")
        lines.append("  \"users\": [")
        var users = ["    { \"id\": \"host\", \"name\": \"Portfolio Host\" }"]
        for g in 0..<20 { users.append("    { \"id\": \"guest-\(g)\", \"name\": \"Guest \(g)\" }") }
        lines.append(users.joined(separator: ",\n"))
        lines.append("  ],")
        lines.append("  \"listings\": [")
        var listings: [String] = []
        for f in 0..<flats {
            let city = cities[f % cities.count]
            let ua = 60 + Double(random.next() % 41)
            let c = 1.0 + Double(random.next() % 15) / 10
            listings.append("""
                    { "id": "flat-\(f)", "owner": "host", "name": "Flat \(f)", "city": "\(city.name)", "country": "\(city.country)", "capacity": 4,
                      "thermal": { "uaWPerK": \(ua), "capacitanceKWhPerK": \(c), "initialC": 19 },
                      "devices": [
                        { "id": "heating", "type": "heating", "powerW": 3500, "setpointC": 19 },
                        { "id": "ac", "type": "cooling", "powerW": 1200, "cop": 3.2, "setpointC": 25 },
                        { "id": "plug", "type": "smartPlug", "loadW": 60, "standbyW": 0.5, "on": false },
                        { "id": "door", "type": "lock" }
                      ] }
                """)
        }
        lines.append(listings.joined(separator: ",\n"))
        lines.append("  ],")
        lines.append("  \"automations\": {")
        lines.append("    \"weatherWatcher\": { \"heatOnBelowC\": 15, \"coolOnAboveC\": 24 },")
        lines.append("    \"preheat\": { \"lead\": \"PT2H\", \"comfortC\": 21 },")
        lines.append("    \"setback\": { \"setpointC\": 18 }")
        lines.append("  },")
        // A calendar per flat: stays of 1–6 nights separated by gaps so that the booked share ≈ occupancy.
        var steps: [String] = []
        var reservation = 0
        let meanStay = 3.5
        let meanGap = meanStay * (1 - occupancy) / max(occupancy, 0.05)
        for f in 0..<flats {
            var day = Int(random.next() % 3)
            while true {
                let nights = 1 + Int(random.next() % 6)
                guard day + nights < days else { break }
                let checkIn = firstDay.adding(days: day), checkOut = firstDay.adding(days: day + nights)
                let id = "r\(reservation)"
                reservation += 1
                let guest = "guest-\(random.next() % 20)"
                let bookDay = firstDay.adding(days: max(0, day - 14))
                let item = "flat-\(f)/door/lock"
                steps.append("    { \"at\": \"\(bookDay)T09:00\", \"book\": { \"id\": \"\(id)\", \"guest\": \"\(guest)\", \"listing\": \"flat-\(f)\", \"checkIn\": \"\(checkIn)\", \"checkOut\": \"\(checkOut)\", \"guests\": \(1 + random.next() % 4) } }")
                steps.append("    { \"at\": \"\(checkIn)T15:30\", \"unlock\": { \"item\": \"\(item)\", \"by\": \"\(guest)\" } }")
                steps.append("    { \"at\": \"\(checkIn)T15:31\", \"arrive\": { \"reservation\": \"\(id)\" } }")
                steps.append("    { \"at\": \"\(checkIn)T15:35\", \"lock\": { \"item\": \"\(item)\", \"by\": \"\(guest)\" } }")
                steps.append("    { \"at\": \"\(checkIn)T19:00\", \"command\": { \"item\": \"flat-\(f)/plug/switch\", \"value\": \"ON\" } }")
                steps.append("    { \"at\": \"\(checkIn)T23:00\", \"command\": { \"item\": \"flat-\(f)/plug/switch\", \"value\": \"OFF\" } }")
                steps.append("    { \"at\": \"\(checkOut)T09:30\", \"depart\": { \"reservation\": \"\(id)\" } }")
                let gap = Int((meanGap * 2 * random.nextUnit()).rounded())
                day += nights + gap
            }
        }
        lines.append("  \"timeline\": [")
        lines.append(steps.joined(separator: ",\n"))
        lines.append("  ],")
        lines.append("  \"expect\": [")
        lines.append("    { \"energy\": { \"listing\": \"flat-0\" }, \"atLeastKWh\": 0 }")
        lines.append("  ]")
        lines.append("}")
        return lines.joined(separator: "\n") + "\n"
    }
}
