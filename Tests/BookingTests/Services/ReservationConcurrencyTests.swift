import Simulation
import Testing
@testable import Booking

/// Many simultaneous bookings of the same nights: exactly one wins, every other gets `reservation.overlap`.
@Suite struct ReservationConcurrencyTests {
    /// The outcome of one booking attempt.
    enum Outcome: Sendable, Equatable {
        case booked(ReservationID)
        case failed(BookingError.Code)
    }

    /// Registers `guest-0` … `guest-(count-1)`.
    private func registerGuests(_ count: Int, in services: BookingServices) async throws {
        for index in 0..<count {
            _ = try await services.users.register(User(id: UserID("guest-\(index)"), externalID: "ext-guest-\(index)",
                                                       name: "Guest \(index)"))
        }
    }

    /// Books the same nights of `flat-1` once per service entry, all at the same time.
    private func race(_ services: [BookingServices], attemptsEach: Int) async -> [Outcome] {
        await withTaskGroup(of: Outcome.self) { group in
            for (serviceIndex, service) in services.enumerated() {
                for attempt in 0..<attemptsEach {
                    let guest = UserID("guest-\(serviceIndex * attemptsEach + attempt)")
                    group.addTask {
                        do throws(BookingError) {
                            let reservation = try await service.reservations.book(
                                guest: guest, listing: "flat-1", checkIn: ServicesTestWorld.date("2026-01-09"),
                                checkOut: ServicesTestWorld.date("2026-01-11"), guests: 2)
                            return .booked(reservation.id)
                        } catch {
                            return .failed(error.code)
                        }
                    }
                }
            }
            var outcomes: [Outcome] = []
            for await outcome in group { outcomes.append(outcome) }
            return outcomes
        }
    }

    @Test func fiftyConcurrentBookingsOfTheSameNightsGiveExactlyOneReservation() async throws {
        let world = try await ServicesTestWorld.make()
        try await registerGuests(50, in: world.services)
        let outcomes = await race([world.services], attemptsEach: 50)
        #expect(outcomes.count == 50)
        #expect(outcomes.filter { $0 == .booked("res-1") }.count == 1)
        #expect(outcomes.filter { $0 == .failed(.reservationOverlap) }.count == 49)
        let reservations = try await world.services.reservations.reservations(ofListing: "flat-1")
        #expect(reservations.map(\.id) == ["res-1"])
        let counts = try world.snapshot()
        #expect(counts["conversations"] == 1)
        #expect(counts["messages"] == 1)
        #expect(counts["sequence reservation"] == 1)
    }

    @Test func twoConnectionsToOneFileCannotDoubleBookEither() async throws {
        let directory = try StoreTestDirectory()
        let path = directory.file("shared.sqlite")
        let clock = ServicesTestClock(ServicesTestClock.utc("2026-01-01", 12))
        let first = BookingServices(store: try BookingStore.open(path: path), clock: clock.bookingClock)
        let second = BookingServices(store: try BookingStore.open(path: path), clock: clock.bookingClock)
        _ = try await first.users.register(User(id: "host", externalID: "ext-host", name: "Hanna Host"))
        _ = try await first.listings.create(ServicesTestWorld.flat1)
        try await registerGuests(50, in: first)
        let outcomes = await race([first, second], attemptsEach: 25)
        #expect(outcomes.filter { $0 == .booked("res-1") }.count == 1)
        #expect(outcomes.filter { $0 == .failed(.reservationOverlap) }.count == 49)
        #expect(try await second.reservations.reservations(ofListing: "flat-1").count == 1)
    }
}
