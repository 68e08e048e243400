/// One `VEVENT` of an iCalendar (RFC 5545) file, as booking platforms export reservations and blocks.
public struct ICalendarEvent: Sendable, Hashable {
    /// A `DTSTART`/`DTEND` value: a whole day (`VALUE=DATE`), a local time (with its `TZID`, or
    /// floating without one), or a UTC instant (`…Z`).
    public enum Time: Sendable, Hashable {
        /// `20260109`: an all-day value.
        case date(CivilDate)
        /// `20260109T150000` with `TZID=…` (or none: floating).
        case local(LocalDateTime, zone: String?)
        /// `20260109T140000Z`.
        case utc(SimInstant)

    }

    /// `UID`: the event's identity across updates.
    public var uid: String
    /// `SUMMARY` (`Reserved`, `Airbnb (Not available)`), unescaped.
    public var summary: String?
    /// `DESCRIPTION`, unescaped (line breaks as `\n`).
    public var description: String?
    /// `DTSTART`.
    public var start: Time
    /// `DTEND`; `nil` when the event has none (a one-day all-day event, RFC 5545 §3.6.1).
    public var end: Time?
    /// `STATUS` (`CONFIRMED`, `TENTATIVE`, `CANCELLED`), upper-cased; `nil` when absent.
    public var status: String?
    /// `DTSTAMP`, `CREATED` and `LAST-MODIFIED` when given in UTC.
    public var stamp: SimInstant?, created: SimInstant?, lastModified: SimInstant?

    /// An event.
    public init(uid: String, summary: String? = nil, description: String? = nil, start: Time, end: Time? = nil,
                status: String? = nil, stamp: SimInstant? = nil, created: SimInstant? = nil, lastModified: SimInstant? = nil) {
        self.uid = uid
        self.summary = summary
        self.description = description
        self.start = start
        self.end = end
        self.status = status
        self.stamp = stamp
        self.created = created
        self.lastModified = lastModified
    }

    /// Whether `STATUS:CANCELLED`.
    public var isCancelled: Bool { status == "CANCELLED" }

    /// The last four digits of the guest's phone from an Airbnb-style description
    /// (`Phone Number (Last 4 Digits): 1234`), the guest's reference; `nil` without one.
    public var phoneLastFour: String? {
        guard let description, let range = description.firstRange(of: "Last 4 Digits): ") else { return nil }
        let digits = description[range.upperBound...].prefix { $0.isASCII && $0.isNumber }
        return digits.count == 4 ? String(digits) : nil
    }
}
