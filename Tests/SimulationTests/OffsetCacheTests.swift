import Testing
@testable import Simulation

/// The calendar's cached offsets agree with the tz database everywhere, in any order of look-ups:
/// daylight saving both ways, half-hour DST (Lord Howe), zones that dropped DST (São Paulo 2019) or
/// skipped a day (Apia 2011), and offsets that are not whole hours.
@Suite("Cached UTC offsets")
struct OffsetCacheTests {
    @Test(arguments: ["Europe/Budapest", "Australia/Lord_Howe", "America/Sao_Paulo", "Pacific/Apia", "Asia/Kolkata",
                      "America/St_Johns", "UTC", "Europe/Dublin"])
    func agreesWithTheTzDatabase(zone: String) throws {
        let calendar = try LocalCalendar(identifier: zone)
        var random = SplitMix64.stream(seed: 1, named: zone)
        // Two years either side of a known transition year, at 7-minute steps, then 5 000 random instants.
        let start = SimInstant(unixSeconds: 1_293_840_000)  // 2011-01-01
        var instants = (0..<30_000).map { start + SimDuration(milliseconds: Int64($0) * 7 * 60_000) }
        instants += (0..<5_000).map { _ in SimInstant(unixMilliseconds: Int64(random.next() % 4_000_000_000_000)) }
        for instant in instants {
            #expect(calendar.offset(at: instant) == calendar.uncachedOffset(at: instant), "\(zone) at \(instant)")
        }
        // Probes around each transition, backwards in time (the order a conversion's ±1 day probes take).
        for instant in instants.prefix(30_000).reversed() where instant.unixMilliseconds % (86_400_000 * 3) == 0 {
            for delta in [-86_400_000, -1, 0, 1, 86_400_000] as [Int64] {
                let probe = SimInstant(unixMilliseconds: instant.unixMilliseconds + delta)
                #expect(calendar.offset(at: probe) == calendar.uncachedOffset(at: probe))
            }
        }
    }
}
