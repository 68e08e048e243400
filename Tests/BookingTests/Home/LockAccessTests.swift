import Booking
import Simulation
import SmartHome
import Testing

@Suite("HomeService: lock access windows and the audit log")
struct LockAccessTests {
    /// One boundary case: local or UTC instant, and whether the guest may unlock then.
    struct Boundary: Sendable, CustomTestStringConvertible {
        var at: String
        var allowed: Bool
        var testDescription: String { "\(at) → \(allowed ? "allowed" : "denied")" }
    }

    @Test("the guest's window is [check-in − early, check-out + late)", arguments: [
        Boundary(at: "2026-01-09T13:59:59", allowed: false),
        Boundary(at: "2026-01-09T14:00", allowed: true),
        Boundary(at: "2026-01-10T03:00", allowed: true),
        Boundary(at: "2026-01-11T10:29:59", allowed: true),
        Boundary(at: "2026-01-11T10:30", allowed: false),
    ])
    func bufferedWindow(_ boundary: Boundary) async throws {
        let twin = try await BookingTwin(access: LockAccessWindow(earlyCheckIn: .hours(1), lateCheckOut: .minutes(30)))
        try await twin.book("r1", "2026-01-09", "2026-01-11")
        try await twin.run(until: boundary.at)
        try await expectUnlock(twin, allowed: boundary.allowed)
        let entry = try #require(try await twin.home.lockAudit(listing: "flat-1").last)
        #expect(entry.at == (try twin.at(boundary.at)))
        #expect(entry.outcome == (boundary.allowed ? .allowed : .denied))
        if boundary.allowed {
            #expect(entry.reason == "guest of r1 within 2026-01-09T14:00…2026-01-11T10:30")
        } else {
            #expect(entry.reason.hasPrefix("no stay covers now"))
            #expect(entry.reason.contains("r1 2026-01-09T14:00…2026-01-11T10:30"))
        }
    }

    @Test("without buffers the window is exactly check-in … check-out", arguments: [
        Boundary(at: "2026-01-09T14:59:59", allowed: false),
        Boundary(at: "2026-01-09T15:00", allowed: true),
        Boundary(at: "2026-01-11T09:59:59", allowed: true),
        Boundary(at: "2026-01-11T10:00", allowed: false),
    ])
    func exactWindow(_ boundary: Boundary) async throws {
        let twin = try await BookingTwin()
        try await twin.book("r1", "2026-01-09", "2026-01-11")
        try await twin.run(until: boundary.at)
        try await expectUnlock(twin, allowed: boundary.allowed)
    }

    @Test("DST: check-out 10:00 on the spring-forward day is 08:00Z", arguments: [
        Boundary(at: "2026-03-29T07:59:59Z", allowed: true),
        Boundary(at: "2026-03-29T08:00:00Z", allowed: false),
        Boundary(at: "2026-03-28T13:59:59Z", allowed: false),
        Boundary(at: "2026-03-28T14:00:00Z", allowed: true),
    ])
    func springForwardCheckOut(_ boundary: Boundary) async throws {
        let twin = try await BookingTwin(start: "2026-03-28T00:00")
        try await twin.book("r1", "2026-03-28", "2026-03-29")
        try await twin.kernel.run(until: try twin.at(boundary.at))
        try await expectUnlock(twin, allowed: boundary.allowed)
    }

    @Test("DST: a check-in time in the spring-forward gap (02:30) moves to 03:30 CEST", arguments: [
        Boundary(at: "2026-03-29T01:29:59Z", allowed: false),
        Boundary(at: "2026-03-29T01:30:00Z", allowed: true),
    ])
    func springForwardGap(_ boundary: Boundary) async throws {
        let twin = try await BookingTwin(start: "2026-03-28T00:00", checkInTime: "02:30")
        try await twin.book("r1", "2026-03-29", "2026-03-30")
        try await twin.kernel.run(until: try twin.at(boundary.at))
        try await expectUnlock(twin, allowed: boundary.allowed)
    }

    @Test("DST: an ambiguous check-out time (02:30 on the fall-back day) is the earlier one, 00:30Z", arguments: [
        Boundary(at: "2026-10-25T00:29:59Z", allowed: true),
        Boundary(at: "2026-10-25T00:30:00Z", allowed: false),
        Boundary(at: "2026-10-25T01:29:59Z", allowed: false),  // the wall clock reads 02:29:59 again
    ])
    func fallBackOverlap(_ boundary: Boundary) async throws {
        let twin = try await BookingTwin(start: "2026-10-24T00:00", checkOutTime: "02:30")
        try await twin.book("r1", "2026-10-24", "2026-10-25")
        try await twin.kernel.run(until: try twin.at(boundary.at))
        try await expectUnlock(twin, allowed: boundary.allowed)
    }

    @Test("the owner may always; strangers and cancelled guests never; all of it audited")
    func ownerStrangerCancelled() async throws {
        let twin = try await BookingTwin()
        try await twin.book("r1", "2026-01-09", "2026-01-11")
        try await twin.book("r2", "2026-01-12", "2026-01-13", guest: BookingTwin.carol)
        try await twin.cancel("r2")
        try await twin.run(until: "2026-01-09T03:00")
        try await twin.home.operateLock(item: "flat-1/door/lock", operation: .unlock, by: BookingTwin.host)
        try await twin.run(until: "2026-01-09T16:00")
        let stranger = await expectTwinError(.lockAccessDenied) {
            try await twin.home.operateLock(item: "flat-1/door/lock", operation: .unlock, by: BookingTwin.stranger)
        }
        #expect(stranger?.message.contains("not the owner and no reservation at flat-1") == true)
        try await twin.run(until: "2026-01-12T16:00")
        await expectTwinError(.lockAccessDenied) {
            try await twin.home.operateLock(item: "flat-1/door/lock", operation: .unlock, by: "carol")
        }
        try await twin.home.operateLock(item: "flat-1/door/lock", operation: .lock, by: BookingTwin.host)

        let audit = try await twin.home.lockAudit(listing: "flat-1")
        let lines = audit.map { "\($0.at) \($0.user) \($0.operation.rawValue) \($0.item) \($0.outcome.rawValue): \($0.reason)" }
        #expect(lines == [
            "2026-01-09T02:00:00Z host unlock flat_1_door_lock allowed: owner",
            "2026-01-09T15:00:00Z stranger unlock flat_1_door_lock denied: not the owner and no reservation at flat-1",
            "2026-01-12T15:00:00Z carol unlock flat_1_door_lock denied: only cancelled reservations at flat-1 (r2)",
            "2026-01-12T15:00:00Z host lock flat_1_door_lock allowed: owner",
        ])
    }

    @Test("an allowed unlock moves the bolt (2 s motor); Item names work as well as paths")
    func lockReachesTheTwin() async throws {
        let twin = try await BookingTwin()
        try await twin.book("r1", "2026-01-09", "2026-01-11")
        try await twin.run(until: "2026-01-09T15:00")
        let entry = try await twin.home.operateLock(item: "flat-1/door/lock", operation: .unlock, by: BookingTwin.guest)
        #expect(entry.outcome == .allowed)
        try await twin.run(until: "2026-01-09T15:00:02")
        #expect(try await twin.state("flat-1/door/lock") == "OFF")
        #expect(await twin.locks["flat-1"]?.isLocked == false)
        try await twin.home.operateLock(item: "flat_1_door_lock", operation: .lock, by: BookingTwin.guest)
        try await twin.run(until: "2026-01-09T15:00:04")
        #expect(try await twin.state("flat-1/door/lock") == "ON")
        // setSwitch on a lock configuration goes through the same rules and audit.
        try await twin.run(until: "2026-01-11T12:00")
        await expectTwinError(.lockAccessDenied) {
            try await twin.home.setSwitch(configuration: "flat-1/door", on: false, by: BookingTwin.guest)
        }
        #expect(try await twin.home.lockAudit().map(\.outcome) == [.allowed, .allowed, .denied])
    }

    @Test("an OFFLINE lock fails with thing.offline, unknown Items with item.notFound; both audited")
    func offlineAndUnknown() async throws {
        let twin = try await BookingTwin()
        await twin.locks["flat-1"]?.setOnline(false)
        let offline = await expectTwinError(.thingOffline) {
            try await twin.home.operateLock(item: "flat-1/door/lock", operation: .unlock, by: BookingTwin.host)
        }
        #expect(offline?.message.contains("(Thing twin:lock:flat-1:door) is OFFLINE") == true)
        try await twin.run(until: "2026-01-09T00:01")
        #expect(await twin.locks["flat-1"]?.isLocked == true)
        await expectTwinError(.itemNotFound) {
            try await twin.home.operateLock(item: "flat-1/window/lock", operation: .unlock, by: BookingTwin.host)
        }
        await expectTwinError(.itemNotFound) {
            try await twin.home.operateLock(item: "flat-1/heating/switch", operation: .unlock, by: BookingTwin.host)
        }
        await expectTwinError(.itemNotFound) {
            try await twin.home.operateLock(item: "no_such_item", operation: .unlock, by: BookingTwin.host)
        }
        await twin.locks["flat-1"]?.setOnline(true)
        try await twin.home.operateLock(item: "flat-1/door/lock", operation: .unlock, by: BookingTwin.host)

        let audit = try await twin.home.lockAudit()
        #expect(audit.map(\.outcome) == [.failed, .failed, .failed, .allowed])
        #expect(audit[0].reason.hasPrefix("owner; thing.offline: "))
        #expect(audit[1].reason.hasPrefix("item.notFound: "))
        #expect(audit[1].item == "flat-1/window/lock")
        #expect(audit[2].reason.hasPrefix("item.notFound: "))
        #expect(audit.allSatisfy { $0.listing == "flat-1" && $0.user == BookingTwin.host && $0.operation == .unlock })
    }

    /// Unlocks as the guest now and checks the outcome (and that a denial is `lock.accessDenied`).
    private func expectUnlock(_ twin: BookingTwin, allowed: Bool, sourceLocation: SourceLocation = #_sourceLocation) async throws {
        if allowed {
            let entry = try await twin.home.operateLock(item: "flat-1/door/lock", operation: .unlock, by: BookingTwin.guest)
            #expect(entry.outcome == .allowed, sourceLocation: sourceLocation)
        } else {
            await expectTwinError(.lockAccessDenied, sourceLocation: sourceLocation) {
                try await twin.home.operateLock(item: "flat-1/door/lock", operation: .unlock, by: BookingTwin.guest)
            }
        }
        let last = try await twin.home.lockAudit(listing: "flat-1").last
        #expect(last?.outcome == (allowed ? .allowed : .denied), sourceLocation: sourceLocation)
        #expect(last?.at == twin.kernel.now, sourceLocation: sourceLocation)
    }
}
