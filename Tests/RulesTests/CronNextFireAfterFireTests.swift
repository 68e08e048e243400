import Rules
import Simulation
import Testing

/// `nextFire(afterFire:)` — the shortcut a cron's recurring timer asks at each fire — gives the fires `nextFire(after:)`
/// gives, across daylight-saving changes, half-hour zones and seconds fields it cannot shortcut.
@Suite("Cron: the next fire after a fire")
struct CronNextFireAfterFireTests {
    struct Chain: CustomTestStringConvertible, Sendable {
        let zone: String
        let start: String
        let expression: String
        var testDescription: String { "\(expression) from \(start) in \(zone)" }
    }

    static let chains: [Chain] = {
        // The hours around each change: Budapest 01:00Z spring and autumn 2026, St John's (−03:30/−02:30) 05:30Z and 04:30Z.
        let starts = [("Europe/Budapest", "2026-03-29T00:00:00Z"), ("Europe/Budapest", "2026-10-25T00:00:00Z"),
                      ("America/St_Johns", "2026-03-08T04:30:00Z"), ("America/St_Johns", "2026-11-01T03:30:00Z"), ("UTC", "2026-12-31T22:00:00Z")]
        let expressions = ["* * * * * ?", "0-58 * * * * ?", "*/2 * * * * ?", "5-9,30-59 * 2,3 * * ?", "* 30 2 * * ?", "* * * 29 3 ?"]
        return starts.flatMap { zone, start in expressions.map { Chain(zone: zone, start: start, expression: $0) } }
    }()

    @Test(arguments: chains)
    func theShortcutGivesTheSearchsFires(_ chain: Chain) throws {
        let calendar = try LocalCalendar(identifier: chain.zone)
        let cron = try CronExpression(chain.expression)
        var fire = try #require(cron.nextFire(after: try calendar.parseInstant(chain.start), in: calendar))
        var shortcuts = 0
        for _ in 0..<12_000 {
            let searched = cron.nextFire(after: fire, in: calendar)
            let next = cron.nextFire(afterFire: fire, in: calendar)
            #expect(next == searched, "after the fire at \(fire)")
            guard let next, next == searched else { return }
            if next == fire + .seconds(1) { shortcuts += 1 }
            fire = next
        }
        // The chains must cross the change for the comparison to mean something: a per-second one runs through it.
        if chain.expression == "* * * * * ?" { #expect(shortcuts > 11_000) }
    }
}
