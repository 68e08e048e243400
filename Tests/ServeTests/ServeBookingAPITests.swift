import SocketTestSupport
import Foundation
import HTTPServer
@testable import Serve
import Testing

/// The booking REST API under `/api/…` and its OpenAPI document, over loopback against scenario 07
/// (host `host`, guest `guest`, listing `kiez` with `heating` and the lock `door`; the timeline books
/// `r1` for 2026-11-20 → 22 at 10:00, checks in at 15:01 and out on the 22nd at 09:30).
@Suite("serve: booking API")
struct ServeBookingAPITests {
    /// The JSON array of a response body.
    func jsonArray(_ response: RawResponse) -> [[String: Any]] {
        (try? JSONSerialization.jsonObject(with: Data(response.body))) as? [[String: Any]] ?? []
    }

    /// The error code of an error body.
    func code(_ response: RawResponse) -> String? { (jsonObject(response)["error"] as? [String: Any])?["code"] as? String }

    @Test func usersListingsAndBookingsWithTheServicesCodes() async throws {
        try await withTwin { server in
            let port = server.port
            try await blocking {
                let c = try TwinClient(port: port)
                #expect(jsonArray(try c.send("GET", "/api/users")).compactMap { $0["id"] as? String } == ["guest", "host"])
                let ada = try c.send("POST", "/api/users", body: #"{"id": "ada", "name": "Ada Guest"}"#)
                #expect(ada.status == 201 && jsonObject(ada)["externalId"] as? String == "ada")
                let twice = try c.send("POST", "/api/users", body: #"{"id": "ada", "name": "Ada Again"}"#)
                #expect(twice.status == 409 && code(twice) == "user.duplicate")
                #expect(code(try c.send("POST", "/api/users", body: #"{"id": "bob", "name": " "}"#)) == "user.invalid")
                #expect(try c.send("GET", "/api/users/ada").status == 200)
                let nobody = try c.send("GET", "/api/users/nobody")
                #expect(nobody.status == 404 && code(nobody) == "user.notFound")

                let loft = try c.send("POST", "/api/listings", body: #"{"id": "loft", "owner": "ada", "name": "Loft", "city": "Berlin", "country": "Germany", "capacity": 3}"#)
                #expect(loft.status == 201 && jsonObject(loft)["timeZone"] as? String == "Europe/Berlin" && jsonObject(loft)["checkInTime"] as? String == "15:00")
                #expect(try c.send("POST", "/api/listings", body: #"{"id": "x", "owner": "zed", "name": "X", "city": "Berlin", "country": "Germany", "capacity": 1}"#).status == 404)
                #expect(jsonArray(try c.send("GET", "/api/listings?city=Berlin")).compactMap { $0["id"] as? String } == ["kiez", "loft"])
                #expect(jsonArray(try c.send("GET", "/api/listings?city=Berlin&excluding=ada")).compactMap { $0["id"] as? String } == ["kiez"])
                #expect(try c.send("GET", "/api/listings").status == 400)
                #expect(jsonArray(try c.send("GET", "/api/users/ada/listings")).count == 1)

                // Book after the timeline's r1 (20 → 22): allowed from the 22nd, refused overlapping, too big, own listing.
                let booked = try c.send("POST", "/api/reservations", body: #"{"guest": "ada", "listing": "kiez", "checkIn": "2026-11-22", "checkOut": "2026-11-24", "guests": 2}"#)
                #expect(booked.status == 201 && jsonObject(booked)["id"] as? String == "res-1" && jsonObject(booked)["nights"] as? Int == 2)
                #expect(jsonObject(booked)["createdAt"] as? String == "2026-11-20T00:00:00+01:00[Europe/Berlin]")
                let overlap = try c.send("POST", "/api/reservations", body: #"{"guest": "ada", "listing": "kiez", "checkIn": "2026-11-23", "checkOut": "2026-11-25", "guests": 1}"#)
                #expect(overlap.status == 409 && code(overlap) == "reservation.overlap")
                let big = try c.send("POST", "/api/reservations", body: #"{"guest": "ada", "listing": "kiez", "checkIn": "2026-11-25", "checkOut": "2026-11-26", "guests": 9}"#)
                #expect(big.status == 422 && code(big) == "reservation.capacity")
                let own = try c.send("POST", "/api/reservations", body: #"{"guest": "host", "listing": "kiez", "checkIn": "2026-11-25", "checkOut": "2026-11-26", "guests": 1}"#)
                #expect(own.status == 403 && code(own) == "reservation.ownListing")
                let backwards = try c.send("POST", "/api/reservations", body: #"{"guest": "ada", "listing": "kiez", "checkIn": "2026-11-26", "checkOut": "2026-11-25", "guests": 1}"#)
                #expect(backwards.status == 422 && code(backwards) == "reservation.dates")
                // Malformed bodies: 400 naming the field.
                let text = try c.send("POST", "/api/reservations", body: #"{"guest": "ada", "listing": "kiez", "checkIn": "2026-11-25", "checkOut": "2026-11-26", "guests": "two"}"#)
                #expect(text.status == 400 && text.text.contains(#"\"guests\""#))
                #expect(try c.send("POST", "/api/reservations", body: "{not json").status == 400)
                #expect(try c.send("POST", "/api/reservations", body: "").status == 400)
                #expect(try c.send("POST", "/api/reservations", body: #"{"guest": "ada", "listing": "kiez", "checkIn": "25.11.2026", "checkOut": "2026-11-26", "guests": 1}"#).status == 400)
                let extra = try c.send("POST", "/api/reservations", body: #"{"guest": "ada", "listing": "kiez", "checkIn": "2026-11-25", "checkOut": "2026-11-26", "guests": 1, "pets": 2}"#)
                #expect(extra.status == 400 && extra.text.contains("pets"))
                #expect(jsonArray(try c.send("GET", "/api/users/ada/reservations")).count == 1)
                #expect(jsonArray(try c.send("GET", "/api/users/ada/conversations")).count == 1)

                // Routing: 405 with Allow, unknown endpoints, HEAD.
                let delete = try c.send("DELETE", "/api/users")
                #expect(delete.status == 405 && delete.headers["Allow"] == "GET, HEAD, POST")
                let unknown = try c.send("GET", "/api/pets")
                #expect(unknown.status == 404 && code(unknown) == "serve.notFound")
                #expect(try c.send("HEAD", "/api/users/ada").status == 200)
            }
        }
    }

    @Test func staysMessagesDevicesLocksAndRatingsOnTheLiveWorld() async throws {
        try await withTwin { server in
            let port = server.port
            try await blocking {
                let c = try TwinClient(port: port)
                #expect(try c.send("POST", "/twin/advance", body: #"{"to": "2026-11-20T16:00"}"#).status == 200)
                // The timeline booked and checked in r1; the API sees it, and the greeting opened its conversation.
                #expect(jsonObject(try c.send("GET", "/api/reservations/r1"))["status"] as? String == "checkedIn")
                #expect(jsonArray(try c.send("GET", "/api/listings/kiez/reservations")).count == 1)
                #expect(jsonArray(try c.send("GET", "/api/reservations/r1/messages")).first?["sender"] as? String == "guest")
                let reply = try c.send("POST", "/api/reservations/r1/messages", body: #"{"from": "host", "text": "Welcome!"}"#)
                #expect(reply.status == 201 && jsonObject(reply)["sentAt"] as? String == "2026-11-20T16:00:00+01:00[Europe/Berlin]")
                let stranger = try c.send("POST", "/api/reservations/r1/messages", body: #"{"from": "nobody", "text": "Hi"}"#)
                #expect(stranger.status == 403 || stranger.status == 404)
                #expect(code(try c.send("POST", "/api/reservations/r1/messages", body: #"{"from": "host", "text": "  "}"#)) == "message.invalid")
                #expect(jsonArray(try c.send("GET", "/api/reservations/r1/messages")).count == 2)

                // Devices: the guest may use them during the stay; a setpoint reaches the openHAB Item.
                let devices = jsonArray(try c.send("GET", "/api/listings/kiez/devices"))
                #expect(devices.compactMap { $0["id"] as? String } == ["kiez/door", "kiez/heating"])
                let set = try c.send("PUT", "/api/listings/kiez/devices/heating/properties/setpoint", body: #"{"value": "22.5", "by": "guest"}"#)
                #expect(set.status == 200)
                let setpoint = (jsonObject(set)["properties"] as? [[String: Any]])?.first { $0["property"] as? String == "setpoint" }
                #expect(setpoint?["state"] as? String == "22.5 °C")
                #expect(try c.send("GET", "/rest/items/kiez_heating_setpoint/state").text == "22.5 °C")
                let readOnly = try c.send("PUT", "/api/listings/kiez/devices/heating/properties/temperature", body: #"{"value": "30", "by": "host"}"#)
                #expect(readOnly.status == 422 && code(readOnly) == "command.invalid")
                let denied = try c.send("POST", "/api/listings/kiez/devices/heating/switch", body: #"{"on": false, "by": "nobody"}"#)
                #expect(denied.status == 403 && code(denied) == "device.accessDenied")
                #expect(try c.send("POST", "/api/listings/kiez/devices/heating/switch", body: #"{"on": "off", "by": "host"}"#).status == 400)
                let off = try c.send("POST", "/api/listings/kiez/devices/heating/switch", body: #"{"on": false, "by": "host"}"#)
                #expect(off.status == 200 && off.text.contains(#""property":"switch","item":"kiez_heating_switch","state":"OFF""#))
                let missing = try c.send("GET", "/api/listings/kiez/devices/sauna")
                #expect(missing.status == 404 && code(missing) == "configuration.notFound")

                // The lock: the guest within the stay, not a stranger; both audited; OFFLINE is a conflict.
                let unlock = try c.send("POST", "/api/listings/kiez/devices/door/unlock", body: #"{"by": "guest"}"#)
                #expect(unlock.status == 200 && jsonObject(unlock)["outcome"] as? String == "allowed")
                let refused = try c.send("POST", "/api/listings/kiez/devices/door/lock", body: #"{"by": "nobody"}"#)
                #expect(refused.status == 403 && code(refused) == "lock.accessDenied")
                #expect(try c.send("POST", "/twin/faults", body: #"{"thing": {"thing": "kiez/door", "status": "OFFLINE"}}"#).status == 200)
                let offline = try c.send("POST", "/api/listings/kiez/devices/door/lock", body: #"{"by": "guest"}"#)
                #expect(offline.status == 409 && code(offline) == "thing.offline")
                #expect(try c.send("POST", "/twin/faults", body: #"{"thing": {"thing": "kiez/door", "status": "ONLINE"}}"#).status == 200)
                let audit = jsonArray(try c.send("GET", "/api/listings/kiez/lock-audit")).compactMap { $0["outcome"] as? String }
                #expect(audit.suffix(3) == ["allowed", "denied", "failed"])

                // Ratings only after checking out; the API's checkout is the timeline's depart.
                #expect(code(try c.send("POST", "/api/listings/kiez/ratings", body: #"{"guest": "guest", "stars": 5}"#)) == "rating.notAllowed")
                #expect(try c.send("POST", "/api/reservations/r1/checkin").status == 409)
                let out = try c.send("POST", "/api/reservations/r1/checkout")
                #expect(out.status == 200 && jsonObject(out)["status"] as? String == "checkedOut")
                #expect(code(try c.send("POST", "/api/reservations/r1/cancel")) == "reservation.state")
                #expect(code(try c.send("POST", "/api/listings/kiez/ratings", body: #"{"guest": "guest", "stars": 6}"#)) == "rating.invalid")
                let rated = try c.send("POST", "/api/listings/kiez/ratings", body: #"{"guest": "guest", "stars": 4, "comment": "Warm."}"#)
                #expect(rated.status == 201 && jsonObject(rated)["reservation"] as? String == "r1")
                let ratings = jsonObject(try c.send("GET", "/api/listings/kiez/ratings"))
                #expect(ratings["count"] as? Int == 1 && ratings["average"] as? Double == 4 && ratings["distribution"] as? [Int] == [0, 0, 0, 1, 0])
                #expect(try c.send("POST", "/api/reservations/zzz/checkin").status == 404)
            }
        }
    }

    @Test func theOpenAPIDocumentDescribesExactlyWhatIsServed() async throws {
        try await withTwin { server in
            let port = server.port
            try await blocking {
                let c = try TwinClient(port: port)
                let response = try c.send("GET", "/openapi.json")
                #expect(response.status == 200)
                let document = jsonObject(response)
                #expect(document["openapi"] as? String == "3.1.0")
                let paths = try #require(document["paths"] as? [String: [String: Any]])
                var documented: Set<String> = []
                for (path, operations) in paths {
                    for method in operations.keys { documented.insert("\(method.uppercased()) \(path)") }
                }
                #expect(documented == Set(BookingAPIRoute.all.map { "\($0.method.rawValue) \($0.path)" }))
                #expect(documented.count == BookingAPIRoute.Operation.allCases.count)
                // Every documented operation is served: with placeholder ids it answers, but never
                // with the router's own "no such endpoint" 404 or a 405.
                for entry in documented.sorted() {
                    let parts = entry.split(separator: " ")
                    let target = String(parts[1]).replacingOccurrences(of: "{", with: "x").replacingOccurrences(of: "}", with: "")
                    let answer = try c.send(String(parts[0]), target, body: ["POST", "PUT"].contains(parts[0]) ? "{}" : "")
                    #expect(answer.status != 405 && code(answer) != "serve.notFound", "\(entry) → \(answer.status) \(answer.text.prefix(120))")
                }
                // Every $ref resolves, and the answers carry the documented keys.
                let schemas = try #require((document["components"] as? [String: Any])?["schemas"] as? [String: [String: Any]])
                let references = response.text.components(separatedBy: "#/components/schemas/").dropFirst().map { $0.prefix { $0 != "\"" } }
                #expect(!references.isEmpty && references.allSatisfy { schemas[String($0)] != nil })
                func conforms(_ object: [String: Any], to name: String) {
                    let schema = schemas[name] ?? [:]
                    let properties = Set((schema["properties"] as? [String: Any])?.keys.map { $0 } ?? [])
                    let required = Set(schema["required"] as? [String] ?? [])
                    #expect(Set(object.keys).isSubset(of: properties), "\(name): \(Set(object.keys).subtracting(properties))")
                    #expect(required.isSubset(of: Set(object.keys)), "\(name) lacks \(required.subtracting(object.keys))")
                }
                conforms(jsonObject(try c.send("GET", "/api/users/host")), to: "User")
                conforms(jsonObject(try c.send("GET", "/api/listings/kiez")), to: "Listing")
                let device = jsonObject(try c.send("GET", "/api/listings/kiez/devices/heating"))
                conforms(device, to: "Device")
                for property in device["properties"] as? [[String: Any]] ?? [] { conforms(property, to: "PropertyState") }
                let error = try c.send("GET", "/api/users/nobody")
                conforms(jsonObject(error), to: "Error")
                conforms(jsonObject(error)["error"] as? [String: Any] ?? [:], to: "ErrorDetail")
                #expect(try c.send("POST", "/twin/advance", body: #"{"to": "2026-11-20T16:00"}"#).status == 200)
                conforms(jsonObject(try c.send("GET", "/api/reservations/r1")), to: "Reservation")
                conforms(jsonArray(try c.send("GET", "/api/reservations/r1/messages")).first ?? [:], to: "Message")
                conforms(jsonArray(try c.send("GET", "/api/users/guest/conversations")).first ?? [:], to: "Conversation")
                conforms(jsonObject(try c.send("POST", "/api/listings/kiez/devices/door/lock", body: #"{"by": "host"}"#)), to: "LockAuditEntry")
                conforms(jsonObject(try c.send("GET", "/api/listings/kiez/ratings")), to: "Ratings")
                #expect(try c.send("POST", "/openapi.json").status == 405)
            }
        }
    }

    @Test func aManualClockGivesTheSameAnswersToTheSameRequests() async throws {
        let requests: [(String, String, String)] = [
            ("POST", "/api/users", #"{"id": "ada", "name": "Ada"}"#),
            ("POST", "/api/reservations", #"{"guest": "ada", "listing": "kiez", "checkIn": "2026-11-22", "checkOut": "2026-11-23", "guests": 1}"#),
            ("POST", "/twin/advance", "PT16H"),
            ("GET", "/api/reservations/r1", ""),
            ("POST", "/api/reservations/r1/messages", #"{"from": "host", "text": "Hello"}"#),
            ("PUT", "/api/listings/kiez/devices/heating/properties/setpoint", #"{"value": "23", "by": "guest"}"#),
            ("POST", "/twin/advance", "PT2H"),
            ("GET", "/api/listings/kiez/devices/heating", ""),
            ("GET", "/api/users/guest/conversations", ""),
            ("POST", "/api/reservations/res-1/cancel", ""),
        ]
        func transcript() async throws -> String {
            let log = LogBox()
            try await withTwin { server in
                let port = server.port
                try await blocking {
                    let c = try TwinClient(port: port)
                    for (method, target, body) in requests {
                        let answer = try c.send(method, target, body: body)
                        log.lines.append("\(method) \(target) → \(answer.status) \(answer.text)")
                    }
                }
            }
            return log.lines.joined(separator: "\n")
        }
        let first = try await transcript()
        let second = try await transcript()
        #expect(first == second)
        #expect(first.split(separator: "\n").count == requests.count)
        #expect(first.contains("23 °C") && first.contains(#""status":"cancelled""#))
    }
}
