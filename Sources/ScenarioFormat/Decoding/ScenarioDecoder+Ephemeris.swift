import Simulation

extension ScenarioDecoder {
    /// `ephemeris`: `{"bankHolidays": {"2026-12-25": "Christmas Day", …}}` — the days openHAB's Ephemeris
    /// would take from the configured country's holiday calendar. The twin has no holiday data of its own,
    /// so a scenario whose rules ask `isBankHoliday` lists the days (an empty object: none).
    static func decodeEphemeris(_ field: Field) -> [CivilDate: String]? {
        guard let root = field.object(["bankHolidays"]), let holidays = root.required("bankHolidays") else { return nil }
        guard case .object(let members) = holidays.node.value else {
            holidays.problem("expected an object of date → holiday name, found \(holidays.node.kindDescription).",
                             hint: "write e.g. {\"2026-12-25\": \"Christmas Day\"}.")
            return nil
        }
        var days: [CivilDate: String] = [:]
        for member in members {
            let key = Field(node: member.value, path: "\(holidays.path).\(member.key)", issues: holidays.issues)
            guard let date = (try? LocalCalendar.parseDate(member.key)) else {
                key.problem("\(UserText.quoted(member.key)) is not a date.", hint: "write the day as \"2026-12-25\".")
                continue
            }
            guard let name = key.name else { continue }
            days[date] = name
        }
        return days
    }
}
