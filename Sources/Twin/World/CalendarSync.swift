import Booking
import ScenarioFormat
import Simulation
import Synchronization

/// Reservations that arrive through booking-platform calendars (a listing's `calendars`): each
/// file is read every `syncEvery` from the scenario's start, as a channel manager polls an
/// Airbnb or Booking.com export, and what changed since the last sync goes through the
/// reservation service like any booking — so automations learn of a booking only at the sync
/// after it was made, as in real life.
///
/// An event appears in the feed at its `CREATED` time (else `LAST-MODIFIED`, else from the
/// start; `DTSTAMP` is the export time and says nothing about the booking). An all-day event is a
/// stay from its `DTSTART` date to its `DTEND` date (one night without `DTEND`); a timed one uses
/// the dates of its times. Blocks (`…Not available…`, `Blocked`) are not stays. A `STATUS:CANCELLED`
/// event with a `CREATED` time was a booking from then until its `LAST-MODIFIED`: it is booked at
/// the first sync after the one and cancelled at the first sync after the other; without `CREATED`
/// it was cancelled before the feed was first read, and is booked and cancelled at the first sync
/// (so `calendar-<listing>.ics` reads back with its cancelled stays too). Each calendar books as its own guest, `<listing>-calendar-<n>`, or, when the
/// description holds a phone's last four digits (Airbnb's), as a guest `<listing>-calendar-<n>-<digits>`
/// registered at the first such booking, the digits kept as the guest's reference; the reservation id is the event's `UID` (`r1@flat-1.rental-twin`,
/// as `calendar-<listing>.ics` writes it, reads back as `r1`). Every booking, cancellation and
/// refusal (an overlap is the service's `reservation.overlap`) is logged under `calendar`.
final class CalendarSync: Sendable {
    private struct Feed: Sendable {
        let listing: ListingID
        let guest: UserID
        let spec: CalendarFeedSpec
        let calendar: LocalCalendar
        let start: SimInstant
    }

    private let feeds: [Feed]
    private let reservations: ReservationService
    private let users: UserService
    private let log: AutomationLog
    /// Per feed: UIDs already booked (or refused), and UIDs already cancelled.
    private let seen: Mutex<[Int: (booked: Set<String>, cancelled: Set<String>)]> = Mutex([:])

    private init(feeds: [Feed], reservations: ReservationService, users: UserService, log: AutomationLog) {
        self.feeds = feeds
        self.reservations = reservations
        self.users = users
        self.log = log
    }

    /// Registers each calendar's guest and schedules its syncs; nothing when no listing has calendars.
    static func install(scenario: Scenario, kernel: SimulationKernel, services: BookingServices, log: AutomationLog) async throws {
        var feeds: [Feed] = []
        for listing in scenario.listings {
            for (offset, spec) in listing.calendars.enumerated() {
                let guest = UserID(CalendarStays.guestID(listing: listing.id, index: offset + 1))
                _ = try await services.users.register(User(id: guest, externalID: "calendar|\(listing.id)|\(spec.file)",
                                                           name: "Guest via \(spec.file)", email: ""))
                feeds.append(Feed(listing: ListingID(listing.id), guest: guest, spec: spec, calendar: scenario.calendar, start: scenario.start))
            }
        }
        guard !feeds.isEmpty else { return }
        let sync = CalendarSync(feeds: feeds, reservations: services.reservations, users: services.users, log: log)
        for index in feeds.indices {
            sync.schedule(index, at: scenario.start, kernel: kernel, end: scenario.end)
        }
    }

    private func schedule(_ index: Int, at time: SimInstant, kernel: SimulationKernel, end: SimInstant) {
        guard time <= end else { return }
        kernel.schedule(at: time, label: "calendar sync \(feeds[index].spec.file)") { [self] now in
            await self.sync(index, at: now)
            self.schedule(index, at: now + self.feeds[index].spec.syncEvery, kernel: kernel, end: end)
        }
    }

    /// Books what appeared and cancels what was cancelled since the last sync. Cancelled events the
    /// feed had before the first sync go first (booked and cancelled at once), so that a live stay
    /// on the same nights is not refused as an overlap with them.
    private func sync(_ index: Int, at now: SimInstant) async {
        let feed = feeds[index]
        let stays = feed.spec.events.filter(CalendarStays.isStay)
        let early = stays.filter { $0.isCancelled && $0.created == nil }
        for event in early + stays.filter({ !($0.isCancelled && $0.created == nil) }) {
            await book(event, feed: feed, index: index, at: now)
            await cancel(event, feed: feed, index: index, at: now)
        }
    }

    /// Books `event` once it has appeared in the feed (its `CREATED`, else `LAST-MODIFIED` for a live
    /// event, else the start) — a refusal is logged and not retried.
    private func book(_ event: ICalendarEvent, feed: Feed, index: Int, at now: SimInstant) async {
        let appeared = event.created ?? (event.isCancelled ? feed.start : event.lastModified ?? feed.start)
        guard appeared <= now, seen.withLock({ $0[index, default: ([], [])].booked.insert(event.uid).inserted }) else { return }
        let id = CalendarStays.reservationID(event, listing: feed.listing)
        guard let (checkIn, checkOut) = Self.dates(event, calendar: feed.calendar) else {
            note(feed, now, "skipped \(event.uid)", "its DTEND is not after its DTSTART")
            return
        }
        let reference = event.phoneLastFour.map { ", phone …\($0)" } ?? ""
        do {
            let guest = try await guest(of: event, feed: feed)
            _ = try await reservations.book(id: id, guest: guest, listing: feed.listing, checkIn: checkIn, checkOut: checkOut, guests: 1)
            note(feed, now, "booked \(id) \(checkIn) → \(checkOut)", "new in \(feed.spec.file)\(reference)")
        } catch {
            note(feed, now, "refused \(id) \(checkIn) → \(checkOut)", "\(error.code.rawValue): \(error.message)")
        }
    }

    /// Cancels a booked `STATUS:CANCELLED` event once its `LAST-MODIFIED` (else the start) has passed.
    private func cancel(_ event: ICalendarEvent, feed: Feed, index: Int, at now: SimInstant) async {
        guard event.isCancelled, (event.lastModified ?? feed.start) <= now else { return }
        let due = seen.withLock { state in
            state[index, default: ([], [])].booked.contains(event.uid) && state[index, default: ([], [])].cancelled.insert(event.uid).inserted
        }
        guard due else { return }
        let id = CalendarStays.reservationID(event, listing: feed.listing)
        do {
            _ = try await reservations.cancel(id)
            note(feed, now, "cancelled \(id)", "STATUS:CANCELLED in \(feed.spec.file)")
        } catch {
            note(feed, now, "could not cancel \(id)", "\(error.code.rawValue): \(error.message)")
        }
    }

    /// The guest a booking is made for: with the last four digits of a phone in the description, a
    /// guest of their own (`<calendar guest>-4821`, external id `calendar|<listing>|<file>|4821`, the
    /// reference a host matches guests by), registered at the first booking; else the calendar's guest.
    private func guest(of event: ICalendarEvent, feed: Feed) async throws(BookingError) -> UserID {
        guard let digits = event.phoneLastFour else { return feed.guest }
        let id = UserID("\(feed.guest.rawValue)-\(digits)")
        do {
            _ = try await users.user(id)
        } catch where error.code == .userNotFound {
            _ = try await users.register(User(id: id, externalID: "calendar|\(feed.listing.rawValue)|\(feed.spec.file)|\(digits)",
                                              name: "Guest …\(digits) via \(feed.spec.file)"))
        }
        return id
    }

    private func note(_ feed: Feed, _ at: SimInstant, _ action: String, _ reason: String) {
        log.append(at: at, automation: "calendar", listing: feed.listing, action: action, reason: reason)
    }

    /// Check-in and check-out dates: all-day dates as they are, times by their local date.
    static func dates(_ event: ICalendarEvent, calendar: LocalCalendar) -> (CivilDate, CivilDate)? {
        func date(_ time: ICalendarEvent.Time) -> CivilDate {
            switch time {
            case .date(let d): return d
            case .local(let local, _): return local.date
            case .utc(let instant): return calendar.date(at: instant)
            }
        }
        let checkIn = date(event.start)
        let checkOut = event.end.map(date) ?? CivilDate(daysSinceEpoch: checkIn.daysSinceEpoch + 1)
        return checkOut > checkIn ? (checkIn, checkOut) : nil
    }
}
