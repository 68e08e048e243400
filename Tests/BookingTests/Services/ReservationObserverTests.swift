import Simulation
import Testing
@testable import Booking

/// Observers hear about every committed change, in the order they were added, and never about failures.
@Suite struct ReservationObserverTests {
    /// Collects what observers heard, in order.
    actor Log {
        private(set) var lines: [String] = []
        func append(_ line: String) { lines.append(line) }
    }

    /// An observer that writes `name: id previous→status` to the log, plus the status it reads back from the
    /// service — proof that the change was committed before the observer was called.
    struct Recorder: ReservationObserver {
        let name: String
        let log: Log
        let service: ReservationService

        func reservationDidChange(_ reservation: Reservation, previous: ReservationStatus?) async {
            let stored = (try? await service.reservation(reservation.id).status.rawValue) ?? "missing"
            await log.append("\(name): \(reservation.id) \(previous?.rawValue ?? "new")→\(reservation.status.rawValue) (stored \(stored))")
        }
    }

    @Test func observersHearEveryCommittedChangeInOrder() async throws {
        let world = try await ServicesTestWorld.make()
        let log = Log()
        let service = world.services.reservations
        service.addObserver(Recorder(name: "A", log: log, service: service))
        service.addObserver(Recorder(name: "B", log: log, service: service))
        try await world.book("r1", "2026-01-09", "2026-01-11")
        try await world.book("r2", guest: "other", "2026-01-11", "2026-01-12")
        world.clock.set(ServicesTestClock.utc("2026-01-09", 15))
        _ = try await service.checkIn("r1")
        _ = try await service.cancel("r2")
        _ = try await service.checkOut("r1")
        #expect(await log.lines == [
            "A: r1 new→confirmed (stored confirmed)", "B: r1 new→confirmed (stored confirmed)",
            "A: r2 new→confirmed (stored confirmed)", "B: r2 new→confirmed (stored confirmed)",
            "A: r1 confirmed→checkedIn (stored checkedIn)", "B: r1 confirmed→checkedIn (stored checkedIn)",
            "A: r2 confirmed→cancelled (stored cancelled)", "B: r2 confirmed→cancelled (stored cancelled)",
            "A: r1 checkedIn→checkedOut (stored checkedOut)", "B: r1 checkedIn→checkedOut (stored checkedOut)",
        ])
    }

    @Test func failuresAreNotReported() async throws {
        let world = try await ServicesTestWorld.make()
        let log = Log()
        let service = world.services.reservations
        try await world.book("r1", "2026-01-09", "2026-01-11")
        service.addObserver(Recorder(name: "A", log: log, service: service))
        _ = await ServicesTestWorld.error { () async throws(BookingError) in try await world.book("r2", "2026-01-10", "2026-01-12") }
        _ = await ServicesTestWorld.error { () async throws(BookingError) in try await service.checkOut("r1") }
        _ = await ServicesTestWorld.error { () async throws(BookingError) in try await service.cancel("r9") }
        #expect(await log.lines.isEmpty)
        _ = try await service.cancel("r1")
        #expect(await log.lines == ["A: r1 confirmed→cancelled (stored cancelled)"])
    }
}
