import Simulation
import Testing
@testable import SmartHome

/// The persistence extensions against openhab-core's `PersistenceExtensions` semantics, each case worked
/// out by hand from that code (left Riemann sums, boundary states retimed, the current state for `now`).
@Suite("Persistence: store and openHAB's persistence extensions")
struct PersistenceTests {
    static let budapest = try! LocalCalendar(identifier: "Europe/Budapest")

    /// Local time on 2026-01-09 (no DST) → instant.
    static func at(_ hour: Int, _ minute: Int = 0, date: String = "2026-01-09") -> SimInstant {
        budapest.resolvedInstant(for: LocalDateTime(date: CivilDate(iso: date[...])!, time: LocalTime(hour: hour, minute: minute, second: 0)!))
    }

    static func c(_ v: Double) -> State { .quantity(Quantity(DecimalNumber(v), .celsius)) }

    /// A temperature Item persisted at 10:00 20 °C, 12:00 22 °C, 13:00 22 °C (an update, no change), 16:00
    /// 18 °C, and now (18:00) in state 18 °C.
    static func temperatureHistory() throws -> (PersistenceStore, Item) {
        let store = PersistenceStore()
        let name = try ItemName("Room")
        store.store(name, c(20), at: at(10))
        store.store(name, c(22), at: at(12))
        store.store(name, c(22), at: at(13))
        store.store(name, c(18), at: at(16))
        var item = Item(name: name, type: .numberItem(.temperature))
        item.state = c(18)
        item.lastStateUpdate = at(16)
        item.lastStateChange = at(16)
        return (store, item)
    }

    @Test func historicStateIsTheNewestAtOrBefore() throws {
        let (store, item) = try Self.temperatureHistory()
        let q = PersistenceQueries(store: store, now: Self.at(18))
        #expect(q.historicState(item, at: Self.at(9))?.state == nil)
        #expect(q.historicState(item, at: Self.at(10)) == PersistedEntry(Self.at(10), Self.c(20)))
        #expect(q.historicState(item, at: Self.at(11, 59))?.state == Self.c(20))
        #expect(q.historicState(item, at: Self.at(14))?.instant == Self.at(13))
    }

    @Test func previousStateWithAndWithoutSkipEqual() throws {
        let (store, item) = try Self.temperatureHistory()
        let q = PersistenceQueries(store: store, now: Self.at(18))
        // Without skipEqual: the newest persisted state, which is the current one (everyChange stored it).
        #expect(q.previousState(item) == PersistedEntry(Self.at(16), Self.c(18)))
        // With skipEqual: the newest that differs from the current state.
        #expect(q.previousState(item, skipEqual: true) == PersistedEntry(Self.at(13), Self.c(22)))
        // Asked at 12:30, only what was stored by then counts (and compared with the Item's state, 18 °C).
        #expect(PersistenceQueries(store: store, now: Self.at(12, 30)).previousState(item, skipEqual: true) == PersistedEntry(Self.at(12), Self.c(22)))
        #expect(PersistenceQueries(store: store, now: Self.at(11)).previousState(item) == PersistedEntry(Self.at(10), Self.c(20)))
    }

    @Test func lastUpdateAndLastChange() throws {
        var (store, item) = try Self.temperatureHistory()
        let q = PersistenceQueries(store: store, now: Self.at(18))
        #expect(q.lastUpdate(item) == Self.at(16))
        #expect(q.lastChange(item) == Self.at(16))
        // The Item moved on without being stored: its own times answer.
        item.state = Self.c(19)
        item.lastStateUpdate = Self.at(17)
        item.lastStateChange = Self.at(17)
        #expect(q.lastUpdate(item) == Self.at(17))
        #expect(q.lastChange(item) == Self.at(17))
        // An unchanged run: the change is the oldest of the newest run of equal states.
        store = PersistenceStore()
        let name = item.name
        store.store(name, Self.c(20), at: Self.at(8))
        store.store(name, Self.c(21), at: Self.at(9))
        store.store(name, Self.c(21), at: Self.at(10))
        item.state = Self.c(21)
        #expect(PersistenceQueries(store: store, now: Self.at(11)).lastChange(item) == Self.at(9))
        // Every stored state equal to the current one: no change known.
        let only = PersistenceStore()
        only.store(name, Self.c(21), at: Self.at(9))
        #expect(PersistenceQueries(store: only, now: Self.at(11)).lastChange(item) == nil)
    }

    @Test("changedSince / updatedSince / countSince / countStateChangesSince", arguments: [
        // (since hour, changed, updated, count, state changes)
        (9, true, true, 4, 2),
        (10, true, true, 4, 2),
        (12, true, true, 3, 1),
        (13, true, true, 2, 1),  // 22 at 13:00, then 18 at 16:00
        (14, true, true, 1, 0),  // state then 22 (from 13:00), 18 stored at 16:00
        (17, false, false, 0, 0),
    ])
    func changesSince(_ hour: Int, _ changed: Bool, _ updated: Bool, _ count: Int, _ changes: Int) throws {
        let (store, item) = try Self.temperatureHistory()
        let q = PersistenceQueries(store: store, now: Self.at(18))
        #expect(q.changedSince(item, Self.at(hour)) == changed)
        #expect(q.updatedSince(item, Self.at(hour)) == updated)
        #expect(q.countSince(item, Self.at(hour)) == count)
        #expect(q.countStateChangesSince(item, Self.at(hour)) == changes)
    }

    @Test func aSinceInTheFutureIsNull() throws {
        let (store, item) = try Self.temperatureHistory()
        let q = PersistenceQueries(store: store, now: Self.at(18))
        #expect(q.changedSince(item, Self.at(19)) == nil)
        #expect(q.countSince(item, Self.at(19)) == nil)
        #expect(q.averageSince(item, Self.at(19)) == nil)
        #expect(q.changedUntil(item, Self.at(17)) == nil)  // an Until in the past
    }

    @Test("averageSince is time-weighted (left Riemann sum) from the first known state", arguments: [
        // since hour → mean over [since, 18:00]
        // 10–12: 20, 12–16: 22, 16–18: 18 → (2·20 + 4·22 + 2·18) / 8 = 20.5
        (10, 20.5),
        // from 09:00 nothing is known before 10:00: the mean starts at 10:00, as openHAB's
        (9, 20.5),
        // 11–12: 20, 12–16: 22, 16–18: 18 → (20 + 88 + 36) / 7
        (11, (20.0 + 88 + 36) / 7),
        // 17–18: 18
        (17, 18.0),
    ])
    func averageSince(_ hour: Int, _ expected: Double) throws {
        let (store, item) = try Self.temperatureHistory()
        let q = PersistenceQueries(store: store, now: Self.at(18))
        let average = try #require(q.averageSince(item, Self.at(hour))?.numericValue)
        #expect(abs(average - expected) < 1e-9)
        guard case .quantity(let mean)? = q.averageSince(item, Self.at(hour)) else {
            Issue.record("the mean of a temperature Item is a quantity")
            return
        }
        #expect(mean.unit == .celsius)
    }

    @Test func averageBetweenTwoPastInstantsUsesTheStateAtTheirEnds() throws {
        let (store, item) = try Self.temperatureHistory()
        let q = PersistenceQueries(store: store, now: Self.at(18))
        // 11–12: 20, 12–14: 22 → (20 + 44) / 3
        let average = try #require(q.averageBetween(item, Self.at(11), Self.at(14))?.numericValue)
        #expect(abs(average - 64.0 / 3) < 1e-9)
        #expect(q.averageBetween(item, Self.at(12), Self.at(12)) == Self.c(22))
    }

    @Test func maximumMinimumSumDeltaEvolution() throws {
        let (store, item) = try Self.temperatureHistory()
        let q = PersistenceQueries(store: store, now: Self.at(18))
        #expect(q.maximumSince(item, Self.at(9))?.state == Self.c(22))
        #expect(q.maximumSince(item, Self.at(9))?.instant == Self.at(12))
        // The state at the start counts, retimed to it.
        #expect(q.minimumSince(item, Self.at(11)) == PersistedEntry(Self.at(16), Self.c(18)))
        #expect(q.maximumSince(item, Self.at(11)) == PersistedEntry(Self.at(12), Self.c(22)))
        #expect(q.maximumSince(item, Self.at(14, 30)) == PersistedEntry(Self.at(14, 30), Self.c(22)))
        // sum: stored values only, no boundaries.
        #expect(q.sumSince(item, Self.at(11))?.numericValue == 62)
        // delta: now (18) minus the state at 11:00 (20).
        #expect(q.deltaSince(item, Self.at(11))?.numericValue == -2)
        #expect(q.deltaBetween(item, Self.at(11), Self.at(12)) == Self.c(2))
        #expect(q.evolutionRate(item, since: Self.at(11))?.value == -10)
        #expect(q.deltaSince(item, Self.at(9)) == nil)  // nothing known at 09:00
    }

    @Test func quantitiesAreReadInTheItemsUnit() throws {
        let store = PersistenceStore()
        let name = try ItemName("Room")
        store.store(name, .quantity(Quantity(DecimalNumber(68), .fahrenheit)), at: Self.at(10))
        store.store(name, Self.c(22), at: Self.at(12))
        var item = Item(name: name, type: .numberItem(.temperature))
        item.state = Self.c(22)
        let q = PersistenceQueries(store: store, now: Self.at(14))
        // 10–12 at 20 °C, 12–14 at 22 °C
        #expect(q.averageSince(item, Self.at(10))?.numericValue == 21)
        #expect(q.minimumSince(item, Self.at(10))?.state.description == "68 °F")
        // A plain Number Item reads the numbers as they are.
        var plain = Item(name: name, type: .numberItem(nil))
        plain.state = .decimal(DecimalNumber(22))
        #expect(PersistenceQueries(store: store, now: Self.at(14)).sumSince(plain, Self.at(9))?.numericValue == 90)
    }

    @Test func switchesAverageAsOnTime() throws {
        let store = PersistenceStore()
        let name = try ItemName("Heater")
        store.store(name, .onOff(.on), at: Self.at(8))
        store.store(name, .onOff(.off), at: Self.at(11))
        var item = Item(name: name, type: .switchItem)
        item.state = .onOff(.off)
        // ON 3 of 4 hours from 08:00 to 12:00.
        #expect(PersistenceQueries(store: store, now: Self.at(12)).averageSince(item, Self.at(8))?.numericValue == 0.75)
    }

    @Test func persistStoresTheCurrentStateOrAGivenOne() throws {
        var (store, item) = try Self.temperatureHistory()
        item.state = Self.c(19)
        let q = PersistenceQueries(store: store, now: Self.at(18))
        q.persist(item)
        q.persist(item, at: Self.at(11), Self.c(25))
        #expect(store.latest(item.name) == PersistedEntry(Self.at(18), Self.c(19)))
        #expect(q.historicState(item, at: Self.at(11, 30))?.state == Self.c(25))
        #expect(q.allStates(item, Self.at(11), Self.at(12))?.map(\.state) == [Self.c(25), Self.c(22)])
        #expect(q.allStates(item, nil, nil) == nil)
    }

    // MARK: DST

    /// 2026-03-29 in Budapest has 23 hours (02:00 → 03:00), 2026-10-25 has 25 (03:00 → 02:00).
    @Test("a day's time-weighted mean uses the day's real length", arguments: [
        ("2026-03-29", "2026-03-30", 23.0),
        ("2026-10-25", "2026-10-26", 25.0),
        ("2026-01-09", "2026-01-10", 24.0),
    ])
    func dstDays(_ day: String, _ next: String, _ hours: Double) throws {
        let store = PersistenceStore()
        let name = try ItemName("Heater")
        let midnight = Self.at(0, date: day), end = Self.at(0, date: next)
        #expect(Double(end.unixMilliseconds - midnight.unixMilliseconds) / 3_600_000 == hours)
        store.store(name, .onOff(.off), at: midnight)
        // ON from 04:00 local to midnight: 20 real hours on every one of these days (after the switch).
        store.store(name, .onOff(.on), at: Self.at(4, date: day))
        var item = Item(name: name, type: .switchItem)
        item.state = .onOff(.on)
        let q = PersistenceQueries(store: store, now: end)
        let average = try #require(q.averageSince(item, midnight)?.numericValue)
        #expect(abs(average - 20 / hours) < 1e-12)
        #expect(q.countStateChangesSince(item, midnight) == 1)
        // The state at 02:30 local on the autumn day is read by instant: both 02:30s are before 04:00.
        #expect(q.historicState(item, at: Self.at(3, 30, date: day))?.state == .onOff(.off))
    }

    // MARK: The store

    @Test func theStoreIsBoundedAndKeepsTimeOrder() throws {
        let store = PersistenceStore(maxEntriesPerItem: 3)
        let name = try ItemName("X")
        for hour in [1, 2, 3, 4, 5] { store.store(name, .decimal(DecimalNumber(integer: hour)), at: Self.at(hour)) }
        #expect(store.entries(name).map(\.state.description) == ["3", "4", "5"])
        // A late store (persist with a timestamp) goes in time order; the oldest is dropped.
        store.store(name, .decimal(DecimalNumber(integer: 35)), at: Self.at(3, 30))
        #expect(store.entries(name).map(\.state.description) == ["35", "4", "5"])
        #expect(store.latest(name)?.state.description == "5")
        #expect(store.entries(name, from: Self.at(4), to: Self.at(4)).count == 1)
        store.remove(name, from: Self.at(4), to: Self.at(4))
        #expect(store.entries(name).map(\.state.description) == ["35", "5"])
        #expect(store.count == 2)
    }

    @Test func everyKindOfStateComesBackEqual() throws {
        let store = PersistenceStore(maxEntriesPerItem: 4)
        let name = try ItemName("Any")
        let states: [State] = [Self.c(21.5), .quantity(Quantity(DecimalNumber(70), .fahrenheit)), .decimal(DecimalNumber(integer: 3)),
                               .percent(DecimalNumber(42.5)), .onOff(.on), .openClosed(.closed), .null, .undef, .string("away"),
                               .dateTime(DateTimeValue(Self.at(9), in: Self.budapest)), .hsb(HSB(parsing: "120,100,50")!)]
        for (index, state) in states.enumerated() {
            store.store(name, state, at: Self.at(1, index))
            let back = try #require(store.latest(name))
            #expect(back.state == state)
            #expect(back.state.description == state.description)
            #expect(back.instant == Self.at(1, index))
        }
        #expect(store.entries(name).count == 4)
        #expect(store.entries(name).first?.state == .undef)
    }

    @Test func recordingFollowsTheBusAndRestoresOnStartup() async throws {
        let world = try await TestWorld()
        let store = PersistenceStore()
        let name = try ItemName("Helper")
        await world.runtime.putItem(Item(name: name, type: .numberItem(nil)))
        store.store(name, .decimal(DecimalNumber(integer: 7)), at: .epoch)
        await store.record(world.runtime, items: [name])
        #expect(try await world.state("Helper") == "7")  // restored
        try await world.advance(.seconds(60))
        _ = try await world.api.updateState("Helper", "8")
        _ = try await world.api.updateState("Helper", "8")  // an update, no change: not stored
        try await world.advance(.seconds(60))
        _ = try await world.api.updateState("Helper", "9")
        try await world.settle()
        #expect(store.entries(name).map(\.state.description) == ["7", "8", "9"])
        #expect(store.entries(name).map(\.instant.unixMilliseconds) == [0, 60_000, 120_000])
    }
}
