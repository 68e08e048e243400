import Booking
import Reports
import ScenarioFormat
import Simulation

extension World {
    /// Every reservation of every listing at the end of the run, for `stays.csv`: sorted by id, each
    /// with its check-in and check-out moments in the listing's time zone.
    public func stayRecords() async -> [StayRecord] {
        var records: [StayRecord] = []
        for listing in scenario.listings {
            guard let reservations = try? await services.reservations.reservations(ofListing: ListingID(listing.id)) else { continue }
            for r in reservations {
                let (start, end) = MeterRecorder.stayWindow(listing: listing, checkIn: r.checkIn, checkOut: r.checkOut,
                                                            calendar: scenario.calendar)
                records.append(StayRecord(reservation: r.id.rawValue, listing: listing.id, guest: r.guest.rawValue,
                                          checkIn: r.checkIn, checkOut: r.checkOut, nights: r.nights, status: r.status.rawValue,
                                          windowStart: start, windowEnd: end))
            }
        }
        return records.sorted { $0.reservation < $1.reservation }
    }
}
