import Booking
import Foundation
import HTTPServer
import ScenarioFormat
import Scenarios
import Simulation
import SmartHome
import Twin

/// The booking REST API under `/api/…` (Docs/SERVE.md): the seed system's controllers — users, listings,
/// reservations, conversations, ratings and the home controller — over the live world's own
/// services, so a booking made here opens the door and warms the flat exactly as a scenario step would.
///
/// Every request runs on the simulation through the kernel's `submit`. Errors are
/// `{"error":{"code":…,"message":…,"http-code":…}}` with the services' stable codes
/// (`reservation.overlap`, `lock.accessDenied`, …) and a status by their kind (``status(ofCode:)``).
/// The endpoints are ``BookingAPIRoute/all``, routed by ``ServeRouter/routes``; `/openapi.json` describes the same list.
struct BookingAPIRouter: Sendable {
    let run: LiveScenarioRun

    /// Answers `request`, which ``ServeRouter/routes`` matched to `route` (its path parameters set).
    func answer(_ route: BookingAPIRoute, _ request: OpenHABRequest) async -> HTTPResponse {
        let call = Call(route: route, request: request)
        let run = run
        return await run.world.submit { await Self.answer(call, run: run) }
    }

    /// One matched request.
    struct Call: Sendable {
        let route: BookingAPIRoute
        let request: OpenHABRequest

        /// A path parameter (always present: the route matched).
        subscript(_ name: String) -> String { request[parameter: name] }

        /// The JSON body, read against the example of the route's request schema.
        func body() throws(ServeError) -> JSONRequestBody {
            let schema = route.requestBody ?? ""
            return try JSONRequestBody(Array(request.body), context: "\(route.method.rawValue) \(request.path)",
                                       example: OpenAPIDocument.examples[schema] ?? "{}")
        }
    }

    /// Runs the call on the simulation and writes its answer.
    private static func answer(_ call: Call, run: LiveScenarioRun) async -> HTTPResponse {
        do {
            let body = try await perform(call, world: run.world, run: run)
            return ServeRouter.encoded(call.route.status, body)
        } catch let error as ServeError {
            return ServeRouter.failure(error)
        } catch let error as RefusedStep {
            return failure(code: error.codeName, message: error.message)
        } catch let error as any CodedError {
            return failure(code: error.codeName, message: error.message)
        } catch {
            return failure(code: "unexpected", message: "\(error)")
        }
    }

    // swiftlint:disable:next cyclomatic_complexity function_body_length
    private static func perform(_ call: Call, world: World, run: LiveScenarioRun) async throws -> any Encodable {
        let services = world.bookingServices
        let calendar = world.scenario.calendar
        switch call.route.operation {
        case .listUsers:
            return try await services.users.users().map(UserDTO.init)
        case .registerUser:
            let body = try call.body()
            let id = try body.string("id")
            let user = User(id: UserID(id), externalID: try body.optionalString("externalId") ?? id, name: try body.string("name"),
                            email: try body.optionalString("email") ?? "")
            return UserDTO(try await services.users.register(user))
        case .getUser:
            return UserDTO(try await services.users.user(UserID(call["user"])))
        case .listingsOfUser:
            return try await services.listings.listings(ofOwner: UserID(call["user"])).map(ListingDTO.init)
        case .reservationsOfUser:
            _ = try await services.users.user(UserID(call["user"]))
            return try await services.reservations.reservations(ofGuest: UserID(call["user"])).map { ReservationDTO($0, calendar) }
        case .conversationsOfUser:
            return try await services.conversations.conversations(ofUser: UserID(call["user"])).map { ConversationDTO($0, calendar) }

        case .searchListings:
            guard let city = call.request.query["city"], !city.isEmpty else {
                throw ServeError(.badRequest, "GET /api/listings needs ?city=…, e.g. /api/listings?city=Berlin (and &excluding=<user> to leave out a host's own).")
            }
            return try await services.listings.listings(inCity: city, excluding: call.request.query["excluding"].map { UserID($0) })
                .map(ListingDTO.init)
        case .createListing:
            let body = try call.body()
            let listing = Listing(
                id: ListingID(try body.string("id")), owner: UserID(try body.string("owner")), name: try body.string("name"),
                address: try body.optionalString("address") ?? "", city: try body.string("city"), country: try body.string("country"),
                capacity: try body.int("capacity"), description: try body.optionalString("description") ?? "",
                checkInTime: try body.time("checkInTime", default: Listing.defaultCheckInTime),
                checkOutTime: try body.time("checkOutTime", default: Listing.defaultCheckOutTime),
                timeZone: try body.optionalString("timeZone") ?? calendar.identifier)
            return ListingDTO(try await services.listings.create(listing))
        case .getListing:
            return ListingDTO(try await services.listings.listing(ListingID(call["listing"])))
        case .reservationsOfListing:
            return try await services.reservations.reservations(ofListing: ListingID(call["listing"])).map { ReservationDTO($0, calendar) }
        case .ratingsOfListing:
            let listing = ListingID(call["listing"])
            let ratings = try await services.ratings.ratings(ofListing: listing).map { RatingDTO($0, calendar) }
            return RatingsDTO(try await services.ratings.summary(ofListing: listing), ratings)
        case .rateListing:
            let body = try call.body()
            return RatingDTO(try await services.ratings.rate(guest: UserID(try body.string("guest")), listing: ListingID(call["listing"]),
                                                              stars: try body.int("stars"), comment: try body.optionalString("comment")), calendar)

        case .devicesOfListing:
            return try await world.homeService.devices(ofListing: ListingID(call["listing"])).map { DeviceDTO($0) }
        case .getDevice:
            return try await device(call, world)
        case .switchDevice:
            let body = try call.body()
            try await world.homeService.setSwitch(configuration: deviceID(call), on: try body.bool("on"), by: UserID(try body.string("by")))
            return try await device(call, world)
        case .setDeviceProperty:
            let body = try call.body()
            try await world.homeService.setProperty(configuration: deviceID(call), property: call["property"], value: try body.string("value"),
                                             by: UserID(try body.string("by")))
            return try await device(call, world)
        case .lockDevice, .unlockDevice:
            let by = UserID(try call.body().string("by"))
            let entry = try await world.homeService.operateLock(item: "\(deviceID(call).rawValue)/lock",
                                                         operation: call.route.operation == .lockDevice ? .lock : .unlock, by: by)
            return LockAuditDTO(entry, calendar)
        case .lockAudit:
            let listing = try await services.listings.listing(ListingID(call["listing"]))
            return try await world.homeService.lockAudit(listing: listing.id).map { LockAuditDTO($0, calendar) }

        case .book:
            let body = try call.body()
            let reservation = try await services.reservations.book(
                id: try body.optionalString("id").map { ReservationID($0) }, guest: UserID(try body.string("guest")),
                listing: ListingID(try body.string("listing")), checkIn: try body.date("checkIn"), checkOut: try body.date("checkOut"),
                guests: try body.int("guests"))
            return ReservationDTO(reservation, calendar)
        case .getReservation:
            return ReservationDTO(try await services.reservations.reservation(ReservationID(call["reservation"])), calendar)
        case .cancelReservation, .checkIn, .checkOut:
            // As the timeline's cancel/arrive/depart steps: checking in or out also sets the room's guests.
            let id = call["reservation"]
            let action: Step.Action = switch call.route.operation {
            case .cancelReservation: .cancel(reservation: id)
            case .checkIn: .arrive(reservation: id)
            default: .depart(reservation: id)
            }
            if let refusal = await run.perform(action) { try failing(refusal) }
            return ReservationDTO(try await services.reservations.reservation(ReservationID(id)), calendar)
        case .messagesOfReservation:
            let conversation = try await services.conversations.conversation(forReservation: ReservationID(call["reservation"]))
            return try await services.conversations.messages(in: conversation.id).map { MessageDTO($0, calendar) }
        case .sendMessage:
            let body = try call.body()
            return MessageDTO(try await services.conversations.send(from: UserID(try body.string("from")),
                                                                   reservation: ReservationID(call["reservation"]), text: try body.string("text")),
                              calendar)
        }
    }

    /// The configuration id of `{listing}/{device}`.
    private static func deviceID(_ call: Call) -> HomeConfigurationID { HomeConfigurationID("\(call["listing"])/\(call["device"])") }

    /// One device with its properties' states.
    private static func device(_ call: Call, _ world: World) async throws -> DeviceDTO {
        let id = deviceID(call)
        let configuration = try await world.homeService.device(id)
        return DeviceDTO(configuration, properties: try await world.homeService.propertyStates(of: id))
    }

    /// A refusal of `perform`, as the error it was.
    private static func failing(_ refusal: (code: String, message: String)) throws -> Never {
        throw RefusedStep(codeName: refusal.code, message: refusal.message)
    }

    /// A step the world refused, with the refusal's code.
    private struct RefusedStep: Error {
        let codeName: String
        let message: String
    }

    /// An error answer for a service's code.
    static func failure(code: String, message: String) -> HTTPResponse {
        let status = status(ofCode: code)
        return ServeRouter.json(status, ServeError.body(code: code, message: message, status: status))
    }

    /// The HTTP status of a booking service's error code: 404 for what does not exist, 403 for
    /// what this user may not do, 409 for what conflicts with the current state, 422 for values the
    /// services refuse, 502 when openHAB or the weather feed failed, 500 for the store.
    static func status(ofCode code: String) -> Int {
        if code.hasSuffix(".notFound") { return 404 }
        switch code {
        case BookingError.Code.lockAccessDenied.rawValue, BookingError.Code.deviceAccessDenied.rawValue,
             BookingError.Code.messageNotParticipant.rawValue, BookingError.Code.reservationOwnListing.rawValue,
             BookingError.Code.ratingNotAllowed.rawValue:
            return 403
        case BookingError.Code.reservationOverlap.rawValue, BookingError.Code.reservationState.rawValue,
             BookingError.Code.reservationDuplicate.rawValue, BookingError.Code.userDuplicate.rawValue,
             BookingError.Code.thingOffline.rawValue:
            return 409
        case BookingError.Code.smartHomeFailed.rawValue, BookingError.Code.weatherUnavailable.rawValue:
            return 502
        case BookingError.Code.storeFailed.rawValue, BookingError.Code.migrationFailed.rawValue, "unexpected":
            return 500
        default:
            return 422  // *.invalid, reservation.capacity/dates, command.invalid, item.nameInvalid
        }
    }
}
