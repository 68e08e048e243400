import ScenarioFormat

/// `GET /openapi.json`: an OpenAPI 3.1 document of the booking API, made from the same route list
/// the router serves (``BookingAPIRoute/all``) and the schemas below, written by hand as data.
enum OpenAPIDocument {
    /// A property of a schema: its JSON type (`string`, `integer`, `number`, `boolean`, `[string]`,
    /// `{string}` for a string map, or another schema's name), whether it is required, a description.
    typealias Property = (name: String, type: String, required: Bool, description: String)

    /// The schemas: answers, request bodies and the error body.
    static let schemas: [(name: String, description: String, properties: [Property])] = [
        ("User", "A registered user.", [
            ("id", "string", true, "The user's id."), ("externalId", "string", true, "The authentication provider's id."),
            ("name", "string", true, "Display name."), ("email", "string", true, "E-mail address, may be empty."),
        ]),
        ("NewUser", "A user to register; externalId defaults to id.", [
            ("id", "string", true, "A short id such as \"host\"."), ("name", "string", true, "Display name."),
            ("externalId", "string", false, "The authentication provider's id."), ("email", "string", false, "E-mail address."),
        ]),
        ("Listing", "A flat to rent.", [
            ("id", "string", true, "The listing's id."), ("owner", "string", true, "The host's user id."), ("name", "string", true, "Title."),
            ("address", "string", true, "Street address, may be empty."), ("city", "string", true, "City, as searched."),
            ("country", "string", true, "Country."), ("capacity", "integer", true, "Most guests per stay."),
            ("description", "string", true, "Free text, may be empty."), ("checkInTime", "string", true, "Local check-in time, HH:MM."),
            ("checkOutTime", "string", true, "Local check-out time, HH:MM."), ("timeZone", "string", true, "IANA time zone."),
        ]),
        ("NewListing", "A listing to create; times default to 15:00 and 10:00, the time zone to the scenario's.", [
            ("id", "string", true, "A short id."), ("owner", "string", true, "A registered user."), ("name", "string", true, "Title."),
            ("city", "string", true, "City."), ("country", "string", true, "Country."), ("capacity", "integer", true, "1 or more."),
            ("address", "string", false, "Street address."), ("description", "string", false, "Free text."),
            ("checkInTime", "string", false, "HH:MM."), ("checkOutTime", "string", false, "HH:MM."), ("timeZone", "string", false, "IANA time zone."),
        ]),
        ("Reservation", "A stay.", [
            ("id", "string", true, "The reservation's id."), ("listing", "string", true, "The listing."), ("guest", "string", true, "The guest's user id."),
            ("checkIn", "string", true, "Arrival date, YYYY-MM-DD."), ("checkOut", "string", true, "Departure date, YYYY-MM-DD."),
            ("nights", "integer", true, "Nights booked."), ("guests", "integer", true, "Guests staying."),
            ("status", "string", true, "confirmed, cancelled, checkedIn or checkedOut."),
            ("createdAt", "string", true, "When it was booked, virtual time with offset and zone."),
        ]),
        ("NewReservation", "A stay to book; the id is generated (res-1, …) when left out.", [
            ("guest", "string", true, "The guest's user id (not the listing's owner)."), ("listing", "string", true, "The listing."),
            ("checkIn", "string", true, "YYYY-MM-DD, today or later."), ("checkOut", "string", true, "YYYY-MM-DD, after checkIn."),
            ("guests", "integer", true, "1 to the listing's capacity."), ("id", "string", false, "An id of your own."),
        ]),
        ("Conversation", "The messages of one reservation between its guest and host.", [
            ("id", "string", true, "The conversation's id."), ("reservation", "string", true, "Its reservation."),
            ("participants", "[string]", true, "Guest and host, sorted."), ("lastMessageAt", "string", true, "Virtual time of the newest message."),
        ]),
        ("Message", "A message.", [
            ("id", "string", true, "The message's id."), ("conversation", "string", true, "Its conversation."),
            ("sender", "string", true, "The sender's user id."), ("text", "string", true, "The text."),
            ("sentAt", "string", true, "Virtual time it was sent."),
        ]),
        ("NewMessage", "A message to send.", [
            ("from", "string", true, "The reservation's guest or the listing's owner."), ("text", "string", true, "1 to 10,000 characters."),
        ]),
        ("Rating", "A guest's rating of a stay.", [
            ("id", "string", true, "The rating's id."), ("listing", "string", true, "The listing."), ("author", "string", true, "The guest."),
            ("reservation", "string", true, "The stay rated."), ("stars", "integer", true, "1 to 5."),
            ("comment", "string", false, "Free text."), ("createdAt", "string", true, "Virtual time it was written."),
        ]),
        ("Ratings", "A listing's ratings with their summary.", [
            ("count", "integer", true, "Number of ratings."), ("average", "number", false, "Mean stars; absent while there are none."),
            ("distribution", "[integer]", true, "Ratings with 1, 2, 3, 4 and 5 stars."), ("ratings", "[Rating]", true, "The ratings."),
        ]),
        ("NewRating", "A rating of the guest's latest checked-out, unrated stay.", [
            ("guest", "string", true, "The guest."), ("stars", "integer", true, "1 to 5."), ("comment", "string", false, "Free text."),
        ]),
        ("Device", "A smart-home device of a listing (a home configuration) and its openHAB Items.", [
            ("id", "string", true, "listing/device."), ("listing", "string", true, "The listing."),
            ("type", "string", true, "heating, cooling, smartPlug, lock or weatherWatcher."), ("name", "string", true, "Display name."),
            ("thingUID", "string", true, "The openHAB Thing."), ("items", "{string}", true, "Property → openHAB Item name."),
            ("properties", "[PropertyState]", false, "Each property's Item and state (one device only)."),
        ]),
        ("PropertyState", "A device property's Item and its openHAB state text.", [
            ("property", "string", true, "switch, setpoint, temperature, …"), ("item", "string", true, "The openHAB Item."),
            ("state", "string", true, "The state as openHAB writes it, e.g. 21 °C."),
        ]),
        ("SwitchCommand", "Switch a device as a user.", [
            ("on", "boolean", true, "true for ON (a lock: locked)."), ("by", "string", true, "The acting user: the owner, or a guest during their stay."),
        ]),
        ("PropertyCommand", "An openHAB command for one property, as a user.", [
            ("value", "string", true, "The command, e.g. 22, 22.5 °C, ON."), ("by", "string", true, "The acting user."),
        ]),
        ("Actor", "Who acts.", [("by", "string", true, "The acting user.")]),
        ("LockAuditEntry", "One lock attempt.", [
            ("at", "string", true, "Virtual time."), ("listing", "string", true, "The listing."), ("item", "string", true, "The lock Item."),
            ("user", "string", true, "Who tried."), ("operation", "string", true, "lock or unlock."),
            ("outcome", "string", true, "allowed, denied or failed."), ("reason", "string", true, "Why."),
        ]),
        ("Error", "Every error answer.", [
            ("error", "ErrorDetail", true, "What went wrong."),
        ]),
        ("ErrorDetail", "A stable code (reservation.overlap, lock.accessDenied, …), a sentence, and the status.", [
            ("code", "string", true, "Stable code."), ("message", "string", true, "What, where and what to do."),
            ("http-code", "integer", true, "The HTTP status."),
        ]),
    ]

    /// A complete example of each request body (every field it takes), quoted in error messages.
    static let examples: [String: String] = [
        "NewUser": #"{"id": "ada", "name": "Ada Guest", "externalId": "auth0|ada", "email": "ada@example.com"}"#,
        "NewListing": #"{"id": "loft", "owner": "host", "name": "City loft", "city": "Berlin", "country": "Germany", "capacity": 2, "address": "", "description": "", "checkInTime": "15:00", "checkOutTime": "10:00", "timeZone": "Europe/Berlin"}"#,
        "NewReservation": #"{"guest": "guest", "listing": "kiez", "checkIn": "2026-11-22", "checkOut": "2026-11-24", "guests": 2, "id": "r2"}"#,
        "NewMessage": #"{"from": "guest", "text": "We arrive at six."}"#,
        "NewRating": #"{"guest": "guest", "stars": 5, "comment": "Warm and quiet."}"#,
        "SwitchCommand": #"{"on": true, "by": "host"}"#,
        "PropertyCommand": #"{"value": "22", "by": "host"}"#,
        "Actor": #"{"by": "guest"}"#,
    ]

    /// The reason phrases of the statuses the API answers.
    private static let reasons = [200: "OK", 201: "Created", 400: "Malformed JSON, a missing or mistyped field or query parameter.",
                                  403: "This user may not do that (not the guest or owner, outside the stay).",
                                  404: "No such user, listing, reservation, device or property.",
                                  405: "Another method is allowed here (see Allow).",
                                  409: "Conflicts with the current state: overlapping dates, a duplicate id, a reservation in the wrong state, an OFFLINE device.",
                                  422: "A value the services refuse: capacity, dates, stars, an invalid command."]

    /// The document, as JSON text with sorted keys.
    static func json(serverURL: String) -> String {
        var paths: [(String, [(String, JSONNode)])] = []
        for route in BookingAPIRoute.all {
            let entry = (route.method.rawValue.lowercased(), operation(route))
            if let index = paths.firstIndex(where: { $0.0 == route.path }) { paths[index].1.append(entry) } else { paths.append((route.path, [entry])) }
        }
        var components: [(String, JSONNode)] = []
        for schema in schemas {
            let properties = schema.properties.map { property in
                (property.name, JSONNode.object(type(property.type) + [("description", .string(property.description))]))
            }
            var object: [(String, JSONNode)] = [("type", .string("object")), ("description", .string(schema.description)),
                                                ("properties", .object(properties)), ("additionalProperties", .bool(false))]
            let required = schema.properties.filter(\.required).map { JSONNode.string($0.name) }
            if !required.isEmpty { object.append(("required", .array(required))) }
            if let example = examples[schema.name], let value = try? JSONParser.parse(example) {
                object.append(("examples", .array([value])))
            }
            components.append((schema.name, .object(object)))
        }
        let document = JSONNode.object([
            ("openapi", .string("3.1.0")),
            ("info", .object([("title", .string("RentalTwin booking API")), ("version", .string("1.0.0")),
                              ("description", .string("The booking services of the digital twin (users, listings, reservations, conversations, ratings, smart-home devices), served by rental-twin serve over the live world. Times are virtual."))])),
            ("servers", .array([.object([("url", .string(serverURL))])])),
            ("paths", .object(paths.map { ($0.0, .object($0.1)) })),
            ("components", .object([("schemas", .object(components))])),
        ])
        return document.text(pretty: true, sortingKeys: true)
    }

    private static func operation(_ route: BookingAPIRoute) -> JSONNode {
        var parameters: [JSONNode] = route.segments.filter { $0.hasPrefix("{") }.map { segment in
            .object([("name", .string(String(segment.dropFirst().dropLast()))), ("in", .string("path")), ("required", .bool(true)),
                     ("schema", .object([("type", .string("string"))]))])
        }
        for query in route.query {
            parameters.append(.object([("name", .string(query.name)), ("in", .string("query")), ("required", .bool(query.required)),
                                       ("description", .string(query.description)), ("schema", .object([("type", .string("string"))]))]))
        }
        var success: [(String, JSONNode)] = [("description", .string(reasons[route.status] ?? "OK"))]
        if let response = route.response { success.append(("content", jsonContent(type(response)))) }
        var responses: [(String, JSONNode)] = [(String(route.status), .object(success))]
        let errorContent = jsonContent([("$ref", .string("#/components/schemas/Error"))])
        for status in Set(route.errors + (route.requestBody != nil || !route.query.isEmpty ? [400] : [])).sorted() where status != route.status {
            responses.append((String(status), .object([("description", .string(reasons[status] ?? "Error.")), ("content", errorContent)])))
        }
        var object: [(String, JSONNode)] = [("operationId", .string(route.operation.rawValue)), ("summary", .string(route.summary)),
                                            ("responses", .object(responses)),
                                            ("tags", .array([.string(route.path.split(separator: "/")[1].capitalized)]))]
        if !parameters.isEmpty { object.append(("parameters", .array(parameters))) }
        if let body = route.requestBody {
            object.append(("requestBody", .object([("required", .bool(true)), ("content", jsonContent(type(body)))])))
        }
        return .object(object)
    }

    /// `{"application/json": {"schema": …}}`.
    private static func jsonContent(_ schema: [(String, JSONNode)]) -> JSONNode {
        .object([("application/json", .object([("schema", .object(schema))]))])
    }

    /// The JSON Schema of a property type, as an object's members.
    private static func type(_ name: String) -> [(String, JSONNode)] {
        if name.hasPrefix("[") { return [("type", .string("array")), ("items", .object(type(String(name.dropFirst().dropLast()))))] }
        if name.hasPrefix("{") { return [("type", .string("object")), ("additionalProperties", .object(type(String(name.dropFirst().dropLast()))))] }
        if ["string", "integer", "number", "boolean"].contains(name) { return [("type", .string(name))] }
        return [("$ref", .string("#/components/schemas/\(name)"))]
    }
}
