import Booking
import ScenarioFormat
import Simulation
import SmartHome
import Weather

extension World {
    /// Performs a timeline step's action as the user (or the world around the flat) would: through the booking
    /// services, the home service and openHAB's API, as the step's kind says.
    /// - Returns: a note for the log when the outcome differs from what was asked (a setpoint the device clamped).
    /// - Throws: the refusal of the layer asked (its stable code).
    public func perform(_ action: Step.Action) async throws -> String? {
        switch action {
        case .book(let id, let guest, let listing, let checkIn, let checkOut, let guests):
            _ = try await services.reservations.book(id: ReservationID(id), guest: UserID(guest), listing: ListingID(listing),
                                                     checkIn: checkIn, checkOut: checkOut, guests: guests)
        case .cancel(let id):
            _ = try await services.reservations.cancel(ReservationID(id))
        case .arrive(let id):
            let reservation = try await services.reservations.checkIn(ReservationID(id))
            await updateGuests(of: reservation.listing)
        case .depart(let id):
            let reservation = try await services.reservations.checkOut(ReservationID(id))
            await updateGuests(of: reservation.listing)
        case .unlock(let item, let by):
            try await home.operateLock(item: World.itemName(item), operation: .unlock, by: UserID(by))
        case .lock(let item, let by):
            try await home.operateLock(item: World.itemName(item), operation: .lock, by: UserID(by))
        case .command(let item, let value):
            try await command(item, value)
            var notes: [String] = []
            let asked = Self.openHABNumber(value)
            // openHAB's number format takes a comma for a grouping separator: `21,5` is 215. Say so
            // where it happened, since nothing else will.
            if value.contains(","), let asked {
                notes.append("openHAB reads \"\(value)\" as \(asked.text): a comma groups digits (2,000), it is not a decimal point; write \(value.replacingOccurrences(of: ",", with: ".")) for that")
            }
            if item.hasSuffix("/setpoint"), let asked {
                let state = await itemState(item)
                if let taken = Self.openHABNumber(state)?.value, abs(taken - asked.value) > 1e-9 {
                    notes.append("\(item) took \(state), not \(value): the device clamps setpoints to its range")
                }
            }
            return notes.isEmpty ? nil : notes.joined(separator: "; ")
        case .weather:
            break  // applied to the city's weather when the world was built (an override from this instant)
        case .thing(let thing, let online):
            if let handler = zoneDevices[thing] {
                await handler.setOnline(online)
            } else if let lock = locks[thing] {
                await lock.setOnline(online)
            } else if let fileThing = fileThings[thing] {
                await fileThing.setOnline(online)
            } else {
                throw BookingError(.thingNotFound, "there is no device \"\(thing)\" (write listing/device).")
            }
        case .feed(let city, let error):
            try feed.setFault(try error.map { code throws(WeatherError) in try FeedFault(status: code) }, forCity: city)
        case .rate(let guest, let listing, let stars, let comment):
            _ = try await services.ratings.rate(guest: UserID(guest), listing: ListingID(listing), stars: stars, comment: comment)
        case .message(let from, let reservation, let text):
            _ = try await services.conversations.send(from: UserID(from), reservation: ReservationID(reservation), text: text)
        case .update(let item, let state):
            try await update(item, state)
        case .runRule(let rule):
            try await rules.runNow(rule, reason: "runRule step")
        case .enableRule(let rule, let enabled):
            try rules.setEnabled(rule, enabled)
        case .trigger(let channel, let event):
            // As openHAB: a channel event nobody listens to is no error; the log says how many rules heard it.
            let heard = rules.channelTriggered(channel, event: event)
            return heard == 0 ? "no rule listens to \(channel) \(event)" : nil
        }
        return nil
    }

    /// The number of a command or state text as openHAB parses it (`21,5` → 215, `21.5 °C` → 21.5), with its text.
    private static func openHABNumber(_ text: String) -> (value: Double, text: String)? {
        if let n = DecimalNumber(parsing: text) { return (n.value, n.stateText) }
        return Quantity(parsing: text).map { ($0.value, $0.description) }
    }

    /// Sets the listing's zone to the guests of every stay checked in there: a guest who overstays
    /// is still in the flat when the next one arrives, and still there after that one leaves.
    private func updateGuests(of listing: ListingID) async {
        guard let zone = zones[listing.rawValue],
              let stays = try? await services.reservations.reservations(ofListing: listing) else { return }
        await zone.setGuests(stays.filter { $0.status == .checkedIn }.reduce(0) { $0 + $1.guests })
    }
}
