import Simulation
import Testing
@testable import Booking

/// The reservation lifecycle `confirmed → checkedIn → checkedOut`, `confirmed → cancelled`; everything else is `reservation.state`.
@Suite struct ReservationStatusTests {
    /// An operation of the service that moves a reservation.
    enum Move: String, CaseIterable, Sendable {
        case cancel, checkIn, checkOut

        var target: ReservationStatus {
            switch self {
            case .cancel: .cancelled
            case .checkIn: .checkedIn
            case .checkOut: .checkedOut
            }
        }

        func run(_ service: ReservationService, _ id: ReservationID) async throws(BookingError) -> Reservation {
            switch self {
            case .cancel: try await service.cancel(id)
            case .checkIn: try await service.checkIn(id)
            case .checkOut: try await service.checkOut(id)
            }
        }
    }

    /// A world with `r1` (2026-01-09 → 2026-01-11) brought to `status`, the clock at 2026-01-10T12:00Z.
    private func world(with status: ReservationStatus) async throws -> ServicesTestWorld {
        let world = try await ServicesTestWorld.make()
        try await world.book("r1", "2026-01-09", "2026-01-11")
        world.clock.set(ServicesTestClock.utc("2026-01-10", 12))
        let reservations = world.services.reservations
        switch status {
        case .confirmed: break
        case .checkedIn: _ = try await reservations.checkIn("r1")
        case .checkedOut: _ = try await reservations.checkIn("r1"); _ = try await reservations.checkOut("r1")
        case .cancelled: _ = try await reservations.cancel("r1")
        }
        #expect(try await reservations.reservation("r1").status == status)
        return world
    }

    @Test func theHappyPathGoesConfirmedCheckedInCheckedOut() async throws {
        let world = try await world(with: .confirmed)
        #expect(try await world.services.reservations.checkIn("r1").status == .checkedIn)
        #expect(try await world.services.reservations.reservation("r1").status == .checkedIn)
        #expect(try await world.services.reservations.checkOut("r1").status == .checkedOut)
        #expect(try await world.services.reservations.reservation("r1").status == .checkedOut)
    }

    @Test(arguments: ReservationStatus.allCases, Move.allCases)
    func everyMoveIsAllowedOnlyWhereTheLifecycleSays(from: ReservationStatus, move: Move) async throws {
        let world = try await world(with: from)
        let service = world.services.reservations
        if from.canMove(to: move.target) {
            let moved = try await move.run(service, "r1")
            #expect(moved.status == move.target)
            #expect(try await service.reservation("r1") == moved)
        } else {
            let error = try await world.expectFailure(.reservationState) { () async throws(BookingError) in
                try await move.run(service, "r1")
            }
            #expect(error?.message == "Reservation \"r1\" is \(from.rawValue) and cannot become \(move.target.rawValue); the allowed moves are confirmed → checkedIn → checkedOut and confirmed → cancelled.")
            #expect(try await service.reservation("r1").status == from)
        }
    }

    @Test func theAllowedMovesAreExactlyTheThreeOfTheLifecycle() {
        let allowed = ReservationStatus.allCases.flatMap { from in
            Move.allCases.filter { from.canMove(to: $0.target) }.map { "\(from.rawValue)→\($0.target.rawValue)" }
        }
        #expect(allowed == ["confirmed→cancelled", "confirmed→checkedIn", "checkedIn→checkedOut"])
    }

    @Test(arguments: Move.allCases)
    func unknownReservationsAreNotFound(move: Move) async throws {
        let world = try await ServicesTestWorld.make()
        let error = try await world.expectFailure(.reservationNotFound) { () async throws(BookingError) in
            try await move.run(world.services.reservations, "r9")
        }
        #expect(error?.message.contains("\"r9\"") == true)
    }

    @Test func checkInOpensAtLocalMidnightAndClosesAtCheckOut() async throws {
        let world = try await ServicesTestWorld.make()
        try await world.book("early", "2026-01-09", "2026-01-11")
        // Budapest is UTC+1 in January: local midnight of 2026-01-09 is 2026-01-08T23:00Z.
        world.clock.set(ServicesTestClock.utc("2026-01-08", 22, 59, millisecond: 59_999))
        let tooEarly = try await world.expectFailure(.reservationState) { () async throws(BookingError) in
            try await world.services.reservations.checkIn("early")
        }
        #expect(tooEarly?.message == "Reservation \"early\" cannot check in at 2026-01-08T23:59:59.999 (Europe/Budapest): the stay starts on 2026-01-09 and arrival opens at local midnight of that day; check in then.")
        world.clock.set(ServicesTestClock.utc("2026-01-08", 23))
        #expect(try await world.services.reservations.checkIn("early").status == .checkedIn)

        try await world.book("late", "2026-01-11", "2026-01-13")
        // Check-out 10:00 local on 2026-01-13 is 09:00Z; from then on the stay is over.
        world.clock.set(ServicesTestClock.utc("2026-01-13", 9))
        let tooLate = try await world.expectFailure(.reservationState) { () async throws(BookingError) in
            try await world.services.reservations.checkIn("late")
        }
        #expect(tooLate?.message == "Reservation \"late\" cannot check in at 2026-01-13T10:00 (Europe/Budapest): the stay ended at check-out 2026-01-13T10:00; book a new stay instead.")
        world.clock.set(ServicesTestClock.utc("2026-01-13", 8, 59, millisecond: 59_999))
        #expect(try await world.services.reservations.checkIn("late").status == .checkedIn)
    }

    @Test func checkOutIsAllowedAnyTimeAfterCheckIn() async throws {
        let world = try await ServicesTestWorld.make()
        try await world.book("r1", "2026-01-09", "2026-01-11")
        world.clock.set(ServicesTestClock.utc("2026-01-09", 0))
        _ = try await world.services.reservations.checkIn("r1")
        world.clock.set(ServicesTestClock.utc("2026-01-20", 0))  // a late departure is recorded, not refused
        #expect(try await world.services.reservations.checkOut("r1").status == .checkedOut)
    }
}
