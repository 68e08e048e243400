import Foundation

/// Local wall-clock time in one IANA time zone, daylight saving included.
///
/// Converts between ``SimInstant`` and ``LocalDateTime`` exactly (integer milliseconds),
/// asking the tz database only for the UTC offset at an instant. Local times inside a
/// daylight-saving gap or overlap are either rejected (``instant(for:)``, for scenario files,
/// where such a time is a mistake) or resolved the way `java.time` does
/// (``resolvedInstant(for:)``: a gap shifts later by its length, an overlap takes the
/// earlier instant), which is what check-in moments need.
public struct LocalCalendar: Sendable, Hashable {
    /// The IANA identifier, e.g. `Europe/Budapest`.
    public let identifier: String
    private let zone: TimeZone
    private let offsets: OffsetCache

    /// A calendar for the IANA zone `identifier`.
    /// - Throws: ``SimulationError`` `time.zoneUnknown` when the tz database does not know it.
    public init(identifier: String) throws(SimulationError) {
        guard let zone = TimeZone(identifier: identifier), zone.identifier == identifier || identifier == "UTC" else {
            throw SimulationError(.unknownTimeZone,
                                  "Time zone \"\(identifier)\" is not an IANA zone name known here; write e.g. \"Europe/Budapest\" or \"UTC\".")
        }
        self.identifier = identifier
        self.zone = zone
        self.offsets = OffsetCache(zone: zone)
    }

    /// Coordinated Universal Time.
    public static let utc: LocalCalendar = {
        do { return try LocalCalendar(identifier: "UTC") } catch { fatalError("UTC must exist: \(error)") }
    }()

    /// The zone's offset from UTC at `instant` (e.g. +1 h in Budapest in winter).
    /// - Complexity: a look-up in the calendar's few cached offset stretches; the tz database only on a miss.
    public func offset(at instant: SimInstant) -> SimDuration {
        SimDuration(milliseconds: offsets.offset(atUnixMilliseconds: instant.unixMilliseconds))
    }

    /// The offset asked of the tz database directly, without the cache (what the cache must agree with).
    func uncachedOffset(at instant: SimInstant) -> SimDuration {
        let date = Date(timeIntervalSince1970: Double(instant.unixSeconds))
        return .seconds(Int64(zone.secondsFromGMT(for: date)))
    }

    /// The wall-clock date and time at `instant`.
    public func localDateTime(at instant: SimInstant) -> LocalDateTime {
        LocalDateTime(wallMilliseconds: wallMilliseconds(at: instant))
    }

    /// The local date at `instant`.
    public func date(at instant: SimInstant) -> CivilDate { localDateTime(at: instant).date }

    /// Every instant whose wall-clock reading is `local`: one normally, none in a gap, two in an overlap.
    /// - Complexity: three offset look-ups.
    public func instants(for local: LocalDateTime) -> [SimInstant] {
        let (first, second) = instants(forWallMilliseconds: local.wallMilliseconds)
        return [first, second].compactMap { $0 }  // larger offset first: the earlier instant first
    }

    /// ``instants(for:)`` of the wall time `wall` ms after 1970-01-01T00:00 (``LocalDateTime/wallMilliseconds``),
    /// without an array: the earlier instant first, `nil`s last.
    func instants(forWallMilliseconds wall: Int64) -> (SimInstant?, SimInstant?) {
        // Offsets never differ by more than a day, and transitions are months apart, so the
        // offsets in force a day either side cover every candidate.
        let probeBefore = offset(at: SimInstant(unixMilliseconds: wall - 86_400_000)).milliseconds
        let probeAfter = offset(at: SimInstant(unixMilliseconds: wall + 86_400_000)).milliseconds
        func candidate(_ candidateOffset: Int64) -> SimInstant? {
            let instant = SimInstant(unixMilliseconds: wall - candidateOffset)
            return offset(at: instant).milliseconds == candidateOffset ? instant : nil
        }
        if probeBefore == probeAfter { return (candidate(probeBefore), nil) }
        // Larger offset first: the earlier instant first.
        let (earlier, later) = (candidate(max(probeBefore, probeAfter)), candidate(min(probeBefore, probeAfter)))
        return earlier == nil ? (later, nil) : (earlier, later)
    }

    /// ``localDateTime(at:)``'s ``LocalDateTime/wallMilliseconds``, without the calendar date in between.
    public func wallMilliseconds(at instant: SimInstant) -> Int64 {
        instant.unixMilliseconds + offset(at: instant).milliseconds
    }

    /// The single instant at which the wall clock reads `local`.
    /// - Throws: ``SimulationError`` `time.nonexistent` in a daylight-saving gap,
    ///   `time.ambiguous` in an overlap, each naming both sides so the user can pick.
    public func instant(for local: LocalDateTime) throws(SimulationError) -> SimInstant {
        let found = instants(for: local)
        switch found.count {
        case 1:
            return found[0]
        case 0:
            throw SimulationError(.nonexistentLocalTime,
                                  "\(local) does not exist in \(identifier): clocks skip it for daylight saving; use a time after the jump or an explicit UTC offset.")
        default:
            let offsets = found.map { Self.offsetText(offset(at: $0)) }.joined(separator: " or ")
            throw SimulationError(.ambiguousLocalTime,
                                  "\(local) happens twice in \(identifier) (offset \(offsets)); add an explicit offset, e.g. \"\(local)\(Self.offsetText(offset(at: found[0])))\".")
        }
    }

    /// The instant for `local`, resolving gaps and overlaps like `java.time`.
    ///
    /// In a gap the time moves later by the length of the gap (02:30 on a spring-forward
    /// day becomes 03:30); in an overlap the earlier of the two instants is taken.
    public func resolvedInstant(for local: LocalDateTime) -> SimInstant {
        let found = instants(for: local)
        if let first = found.first { return first }
        let wall = local.wallMilliseconds
        let before = offset(at: SimInstant(unixMilliseconds: wall - 86_400_000)).milliseconds
        return SimInstant(unixMilliseconds: wall - before)
    }

    /// The instant the wall clock reads `time` on `date` ("15:00 local on 2026-03-29"), resolved
    /// as in ``resolvedInstant(for:)``.
    public func instant(on date: CivilDate, at time: LocalTime) -> SimInstant {
        resolvedInstant(for: LocalDateTime(date: date, time: time))
    }

    /// The first instant of the local day `date` (midnight, or the first moment after a gap).
    public func startOfDay(_ date: CivilDate) -> SimInstant { instant(on: date, at: .midnight) }

    /// The length of the local day `date`: 24 h, or 23 h / 25 h on daylight-saving days.
    public func lengthOfDay(_ date: CivilDate) -> SimDuration {
        startOfDay(date.adding(days: 1)) - startOfDay(date)
    }

    /// `+01:00`-style text for an offset.
    static func offsetText(_ offset: SimDuration) -> String {
        let minutes = offset.milliseconds / 60_000
        let sign = minutes < 0 ? "-" : "+"
        return "\(sign)\(ASCIIDigits.padded(Int(abs(minutes) / 60), 2)):\(ASCIIDigits.padded(Int(abs(minutes) % 60), 2))"
    }

    public static func == (lhs: LocalCalendar, rhs: LocalCalendar) -> Bool { lhs.identifier == rhs.identifier }
    public func hash(into hasher: inout Hasher) { hasher.combine(identifier) }
}
