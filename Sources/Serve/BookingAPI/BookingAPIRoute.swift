import SmartHome

/// One endpoint of the booking REST API under `/api/…`: how it is matched, and what the OpenAPI
/// document says of it. ``BookingAPIRoute/all`` is the one list both the routes of ``ServeRouter/routes``
/// and `/openapi.json` are made from.
struct BookingAPIRoute: Sendable {
    /// The endpoints, as the router tries them.
    enum Operation: String, Sendable, CaseIterable {
        case listUsers, registerUser, getUser, listingsOfUser, reservationsOfUser, conversationsOfUser
        case searchListings, createListing, getListing, reservationsOfListing, ratingsOfListing, rateListing
        case devicesOfListing, getDevice, switchDevice, setDeviceProperty, lockDevice, unlockDevice, lockAudit
        case book, getReservation, cancelReservation, checkIn, checkOut, messagesOfReservation, sendMessage
    }

    let method: OpenHABRequest.Method
    /// The path template: `{name}` is one path segment (percent-decoded).
    let path: String
    let operation: Operation
    let summary: String
    /// The schema of the JSON request body, if any.
    let requestBody: String?
    /// The schema of the answer; `[Name]` is an array of `Name`, `nil` an empty body.
    let response: String?
    /// The success status.
    let status: Int
    /// The query parameters: name, required, description.
    let query: [(name: String, required: Bool, description: String)]
    /// The error statuses this endpoint can answer, besides 400 for a malformed body.
    let errors: [Int]

    init(_ method: OpenHABRequest.Method, _ path: String, _ operation: Operation, _ summary: String, body requestBody: String? = nil,
         returns response: String?, status: Int = 200, query: [(name: String, required: Bool, description: String)] = [],
         errors: [Int]) {
        self.method = method
        self.path = path
        self.operation = operation
        self.summary = summary
        self.requestBody = requestBody
        self.response = response
        self.status = status
        self.query = query
        self.errors = errors
    }

    /// The template's segments.
    var segments: [Substring] { path.split(separator: "/") }

    /// Every endpoint (Docs/SERVE.md's booking API: the seed system's controllers over the same services).
    static let all: [BookingAPIRoute] = [
        .init(.get, "/api/users", .listUsers, "All registered users, sorted by id.", returns: "[User]", errors: []),
        .init(.post, "/api/users", .registerUser, "Registers a user.", body: "NewUser", returns: "User", status: 201, errors: [409, 422]),
        .init(.get, "/api/users/{user}", .getUser, "One user.", returns: "User", errors: [404]),
        .init(.get, "/api/users/{user}/listings", .listingsOfUser, "The listings the user owns, sorted by id.", returns: "[Listing]", errors: [404]),
        .init(.get, "/api/users/{user}/reservations", .reservationsOfUser, "The user's reservations as a guest.", returns: "[Reservation]", errors: [404]),
        .init(.get, "/api/users/{user}/conversations", .conversationsOfUser, "The conversations the user takes part in, newest message first.",
              returns: "[Conversation]", errors: [404]),
        .init(.get, "/api/listings", .searchListings, "The listings in a city, optionally without those of one user (the asking host), sorted by id.",
              returns: "[Listing]",
              query: [("city", true, "The city as written on the listings (exact match)."),
                      ("excluding", false, "A user id whose own listings are left out.")], errors: []),
        .init(.post, "/api/listings", .createListing, "Creates a listing (without devices: those come from the scenario).", body: "NewListing",
              returns: "Listing", status: 201, errors: [404, 422]),
        .init(.get, "/api/listings/{listing}", .getListing, "One listing.", returns: "Listing", errors: [404]),
        .init(.get, "/api/listings/{listing}/reservations", .reservationsOfListing, "The listing's reservations.", returns: "[Reservation]", errors: [404]),
        .init(.get, "/api/listings/{listing}/ratings", .ratingsOfListing, "The listing's ratings and their summary.", returns: "Ratings", errors: [404]),
        .init(.post, "/api/listings/{listing}/ratings", .rateListing, "Rates the guest's latest checked-out, unrated stay at the listing.",
              body: "NewRating", returns: "Rating", status: 201, errors: [403, 404, 422]),
        .init(.get, "/api/listings/{listing}/devices", .devicesOfListing, "The listing's smart-home devices, sorted by name.", returns: "[Device]", errors: [404]),
        .init(.get, "/api/listings/{listing}/devices/{device}", .getDevice, "One device with its properties' Items and current states.",
              returns: "Device", errors: [404]),
        .init(.post, "/api/listings/{listing}/devices/{device}/switch", .switchDevice,
              "Switches a device ON or OFF as a user (the owner always; a guest during their stay). For a lock, on locks and off unlocks.",
              body: "SwitchCommand", returns: "Device", errors: [403, 404, 409, 422]),
        .init(.put, "/api/listings/{listing}/devices/{device}/properties/{property}", .setDeviceProperty,
              "Sends an openHAB command to one property of a device (e.g. setpoint 22) as a user.",
              body: "PropertyCommand", returns: "Device", errors: [403, 404, 409, 422]),
        .init(.post, "/api/listings/{listing}/devices/{device}/lock", .lockDevice,
              "Locks a lock as a user: the owner always, a guest within the access window of their stay; every attempt is audited.",
              body: "Actor", returns: "LockAuditEntry", errors: [403, 404, 409]),
        .init(.post, "/api/listings/{listing}/devices/{device}/unlock", .unlockDevice, "Unlocks a lock as a user, under the same rules as lock.",
              body: "Actor", returns: "LockAuditEntry", errors: [403, 404, 409]),
        .init(.get, "/api/listings/{listing}/lock-audit", .lockAudit, "Every lock attempt at the listing (allowed, denied or failed), in order.",
              returns: "[LockAuditEntry]", errors: [404]),
        .init(.post, "/api/reservations", .book, "Books a stay; the guest's greeting opens the reservation's conversation.", body: "NewReservation",
              returns: "Reservation", status: 201, errors: [403, 404, 409, 422]),
        .init(.get, "/api/reservations/{reservation}", .getReservation, "One reservation.", returns: "Reservation", errors: [404]),
        .init(.post, "/api/reservations/{reservation}/cancel", .cancelReservation, "Cancels a confirmed reservation.", returns: "Reservation",
              errors: [404, 409]),
        .init(.post, "/api/reservations/{reservation}/checkin", .checkIn, "Checks the guest in: the flat's room now holds the stay's guests.",
              returns: "Reservation", errors: [404, 409]),
        .init(.post, "/api/reservations/{reservation}/checkout", .checkOut, "Checks the guest out.", returns: "Reservation", errors: [404, 409]),
        .init(.get, "/api/reservations/{reservation}/messages", .messagesOfReservation, "The messages of the reservation's conversation, oldest first.",
              returns: "[Message]", errors: [404]),
        .init(.post, "/api/reservations/{reservation}/messages", .sendMessage, "Writes a message as the guest or the owner.", body: "NewMessage",
              returns: "Message", status: 201, errors: [403, 404, 422]),
    ]
}
