import Foundation
import Simulation
import SmartHome
import Testing

/// The openHAB REST paths over bytes: statuses and bodies, routed by ``OpenHABRouter/routes``.
@Suite("OpenHABRouter: openHAB's REST paths, statuses and bodies")
struct OpenHABRouterTests {
    static let admin = ["X-OPENHAB-TOKEN": TestWorld.adminToken]

    func router(_ world: TestWorld) -> OpenHABRouter {
        OpenHABRouter(runtime: world.runtime, baseURL: "http://host:8080",
                      policy: OpenHABAccessPolicy(tokens: [TestWorld.adminToken: .administrator, TestWorld.userToken: .user]))
    }

    func send(_ router: OpenHABRouter, _ method: OpenHABRequest.Method, _ path: String, _ body: String? = nil,
              headers: [String: String] = admin) async -> OpenHABResponse {
        await router.handle(OpenHABRequest(method, path, headers: headers, body: Data((body ?? "").utf8)))
    }

    @Test("items: 200 with JSON, 404 with openHAB's body for an unknown Item")
    func items() async throws {
        let world = try await TestWorld()
        let router = router(world)
        let all = await send(router, .get, "/rest/items")
        #expect(all.status == 200)
        #expect(all.header("content-type") == "application/json")
        #expect(try JSONDecoder().decode([EnrichedItemDTO].self, from: all.body).map(\.name)
                == ["flat_1_heating_setpoint", "flat_1_heating_switch", "flat_1_heating_temperature"])
        let one = await send(router, .get, "/rest/items/flat_1_heating_switch")
        #expect(one.status == 200)
        #expect(one.bodyText.hasPrefix(#"{"link":"http://host:8080/rest/items/flat_1_heating_switch","state":"OFF","lastState":"NULL","lastStateUpdate":0,"lastStateChange":0,"editable":true,"type":"Switch""#))
        let missing = await send(router, .get, "/rest/items/nope")
        #expect(missing.status == 404)
        #expect(missing.bodyText == #"{"error":{"message":"Item nope does not exist!","http-code":404}}"#)
        #expect(missing.header(OpenHABResponse.errorCodeHeader) == "item.notFound")
    }

    @Test("commands: 200 empty; 400 with an empty body when the command does not parse; 404 unknown Item")
    func commands() async throws {
        let world = try await TestWorld()
        let router = router(world)
        let ok = await send(router, .post, "/rest/items/flat_1_heating_switch", "ON")
        #expect(ok.status == 200)
        #expect(ok.body.isEmpty)
        #expect(try await world.state("flat_1_heating_switch") == "ON")
        let state = await send(router, .get, "/rest/items/flat_1_heating_switch/state")
        #expect(state.status == 200)
        #expect(state.bodyText == "ON")
        let bad = await send(router, .post, "/rest/items/flat_1_heating_switch", "on")
        #expect(bad.status == 400)
        #expect(bad.body.isEmpty)
        #expect(bad.header(OpenHABResponse.errorCodeHeader) == "command.invalid")
        #expect(await send(router, .post, "/rest/items/nope", "ON").status == 404)
    }

    @Test("state updates: 202; 400 State could not be parsed")
    func stateUpdates() async throws {
        let world = try await TestWorld()
        let router = router(world)
        #expect(await send(router, .put, "/rest/items/flat_1_heating_setpoint/state", "21.5 °C").status == 202)
        let bad = await send(router, .put, "/rest/items/flat_1_heating_setpoint/state", "warm")
        #expect(bad.status == 400)
        #expect(bad.bodyText == #"{"error":{"message":"State could not be parsed: warm","http-code":400}}"#)
    }

    @Test("PUT items: 201 created, 200 updated, 400 empty body for a missing body or a name mismatch")
    func putItems() async throws {
        let world = try await TestWorld()
        let router = router(world)
        let body = #"{"type":"Switch","name":"extra"}"#
        #expect(await send(router, .put, "/rest/items/extra", body).status == 201)
        #expect(await send(router, .put, "/rest/items/extra", body).status == 200)
        let missing = await send(router, .put, "/rest/items/extra")
        #expect(missing.status == 400)
        #expect(missing.body.isEmpty)
        let mismatch = await send(router, .put, "/rest/items/other", body)
        #expect(mismatch.status == 400)
        #expect(mismatch.body.isEmpty)
        #expect(await send(router, .put, "/rest/items/extra", "{not json").status == 400)
        #expect(await send(router, .delete, "/rest/items/extra").status == 200)
        let gone = await send(router, .delete, "/rest/items/extra")
        #expect(gone.status == 404)
    }

    @Test("links: 200 on PUT and DELETE, 400 for an unknown channel, 404 for a missing link")
    func links() async throws {
        let world = try await TestWorld()
        let router = router(world)
        #expect(await send(router, .get, "/rest/links").status == 200)
        _ = await send(router, .put, "/rest/items/extra", #"{"type":"Switch","name":"extra"}"#)
        // A UID with its colons percent-encoded reads the same as one with them as they are.
        #expect(await send(router, .put, "/rest/links/extra/twin%3Athermostat%3Aflat-1%3Aheating%3Aswitch").status == 200)
        #expect(await send(router, .put, "/rest/links/extra/twin:thermostat:flat-1:heating:nope").status == 400)
        #expect(await send(router, .delete, "/rest/links/extra/twin:thermostat:flat-1:heating:switch").status == 200)
        let missing = await send(router, .delete, "/rest/links/extra/twin:thermostat:flat-1:heating:switch")
        #expect(missing.status == 404)
        #expect(missing.bodyText.contains("Link extra -> twin:thermostat:flat-1:heating:switch does not exist!"))
    }

    @Test("things: 200 for the admin, 401 for a bad token, 403 for a user, 404 for an unknown Thing")
    func thingsAndAuth() async throws {
        let world = try await TestWorld()
        let router = router(world)
        #expect(await send(router, .get, "/rest/things").status == 200)
        #expect(await send(router, .get, "/rest/things/twin:thermostat:flat-1:heating").status == 200)
        #expect(await send(router, .get, "/rest/things/twin:thermostat:flat-9:heating").status == 404)
        let bad = await send(router, .get, "/rest/items", headers: ["Authorization": "Bearer wrong"])
        #expect(bad.status == 401)
        #expect(bad.bodyText == #"{"error":{"message":"Invalid credentials","http-code":401}}"#)
        #expect(await send(router, .get, "/rest/things", headers: ["x-openhab-token": TestWorld.userToken]).status == 403)
        #expect(await send(router, .get, "/rest/items", headers: [:]).status == 200)  // implicit user role
    }

    @Test("a Thing's status alone: openHAB's ThingStatusInfo JSON, as the Thing's own; 404, 403 and 405 as the Thing path")
    func thingStatus() async throws {
        let world = try await TestWorld()
        let router = router(world)
        let path = "/rest/things/twin:thermostat:flat-1:heating/status"
        let online = await send(router, .get, path)
        #expect(online.status == 200 && online.header("content-type") == "application/json")
        #expect(online.bodyText == #"{"status":"ONLINE","statusDetail":"NONE"}"#)
        await world.device.setOnline(false)
        let offline = await send(router, .get, path)
        #expect(offline.bodyText == #"{"status":"OFFLINE","statusDetail":"COMMUNICATION_ERROR","description":"no answer"}"#)
        let thing = try JSONDecoder().decode(EnrichedThingDTO.self, from: await send(router, .get, "/rest/things/twin:thermostat:flat-1:heating").body)
        let client = OpenHABRESTClient(transport: router, credentials: OpenHABCredentials(openHABToken: TestWorld.adminToken))
        #expect(try await client.getThingStatus("twin:thermostat:flat-1:heating").body == thing.statusInfo)
        let missing = await send(router, .get, "/rest/things/twin:thermostat:flat-9:heating/status")
        #expect(missing.status == 404)
        #expect(missing.bodyText == #"{"error":{"message":"Thing twin:thermostat:flat-9:heating does not exist!","http-code":404}}"#)
        await #expect(throws: SmartHomeError.self) { try await client.getThingStatus("twin:thermostat:flat-9:heating") }
        #expect(await send(router, .get, path, headers: ["x-openhab-token": TestWorld.userToken]).status == 403)
        #expect(await send(router, .post, path).status == 405)
        #expect(OpenHABRouter.allowedMethods(forPath: path) == [.get])
    }

    @Test("an unknown path is 404 and a known path with another method 405, both empty")
    func unknownPathsAndMethods() async throws {
        let world = try await TestWorld()
        let router = router(world)
        let unknown = await send(router, .get, "/rest/rules")
        #expect(unknown.status == 404)
        #expect(unknown.body.isEmpty)
        #expect(await send(router, .get, "/other").status == 404)
        #expect(await send(router, .post, "/rest/items").status == 405)
        #expect(await send(router, .delete, "/rest/things").status == 405)
    }

    @Test("a 405 carries Allow from the route table; metadata/namespaces lists its GET and the {namespace} rows' PUT and DELETE")
    func allowComesFromTheTable() async throws {
        let world = try await TestWorld()
        let router = router(world)
        let items = await send(router, .post, "/rest/items")
        #expect(items.status == 405 && items.header("Allow") == "GET, HEAD" && items.body.isEmpty)
        let namespaces = await send(router, .post, "/rest/items/flat_1_heating_switch/metadata/namespaces")
        #expect(namespaces.status == 405 && namespaces.header("Allow") == "GET, HEAD, PUT, DELETE")
        #expect(OpenHABRouter.allowedMethods(forPath: "/rest/items/x/metadata/unit") == [.put, .delete])
        #expect(OpenHABRouter.allowedMethods(forPath: "/rest/items/x/nothing") == nil)
    }

    @Test("route table: {name} takes one decoded segment, HEAD finds the GET row, a missing method lists the others")
    func routeTableResolves() {
        let table = RESTRouteTable<String>([
            .init(.get, "/rest/items/{itemname}/state", "read"),
            .init(.put, "/rest/items/{itemname}/state", role: .user, "write"),
            .init(.get, "/rest/items/{itemname}", "item"),
        ])
        guard case .route(let route, let request) = table.resolve("HEAD", OpenHABRequest(.post, "/rest/items/a%20b/state?x=1")) else {
            Issue.record("HEAD did not reach the GET row")
            return
        }
        #expect(route.handler == "read" && request.method == .get && request[parameter: "itemname"] == "a b")
        if case .route(let write, _) = table.resolve("PUT", OpenHABRequest(.get, "/rest/items/x/state")) {
            #expect(write.handler == "write" && write.role == .user)
        } else {
            Issue.record("PUT did not reach its row")
        }
        guard case .methodNotAllowed(let allowed) = table.resolve("PATCH", OpenHABRequest(.get, "/rest/items/x/state")) else {
            Issue.record("PATCH was not refused with the path's methods")
            return
        }
        #expect(allowed == ["GET", "HEAD", "PUT"])
        guard case .notFound = table.resolve("GET", OpenHABRequest(.get, "/rest/items/x/state/more")) else {
            Issue.record("a longer path matched")
            return
        }
    }

    @Test("route table: literals match the decoded segment as String compares it; empty segments and the query do not count")
    func routeLiteralsMatchDecodedSegments() {
        let table = RESTRouteTable<String>([
            .init(.get, "/rest/items/{itemname}/state", "state"),
            .init(.get, "/rest/Kelvin/{name}", "kelvin"),
        ])
        func resolved(_ path: String) -> (String, String)? {
            guard case .route(let route, let request) = table.resolve(OpenHABRequest(.get, path)) else { return nil }
            return (route.handler, request[parameter: route.handler == "state" ? "itemname" : "name"])
        }
        // An escaped literal is decoded before it is compared; a broken escape stays as sent (and then differs).
        #expect(resolved("/rest/it%65ms/a%2Fb/state")! == ("state", "a/b"))
        #expect(resolved("/rest/items/%zz/st%61te?q=/x")! == ("state", "%zz"))
        #expect(resolved("/rest/item%zz/x/state") == nil)
        // Empty segments are skipped, as `OpenHABPath.segments(of:)` skips them.
        #expect(resolved("//rest//items/x///state/")! == ("state", "x"))
        // `K` (U+212A KELVIN SIGN) is canonically equivalent to `K`: String's == matches it, raw or escaped.
        #expect(resolved("/rest/\u{212A}elvin/z")! == ("kelvin", "z"))
        #expect(resolved("/rest/%E2%84%AAelvin/z")! == ("kelvin", "z"))
        #expect(resolved("/rest/kelvin/z") == nil)
        #expect(OpenHABPath.segments(of: "/rest/%E2%84%AAelvin//a%20b?x") == ["rest", "\u{212A}elvin", "a b"])
        #expect(table.allowedMethods(forPath: "/rest/it%65ms/x/state") == ["GET", "HEAD"])
    }

    @Test("the REST client over the router answers as the in-process API, errors included")
    func clientMatchesInProcess() async throws {
        let world = try await TestWorld()
        let client = OpenHABRESTClient(transport: router(world), credentials: OpenHABCredentials(openHABToken: TestWorld.adminToken))
        #expect(try await client.getItems().body == (try await world.api.getItems().body))
        #expect(try await client.getThings().body == (try await world.api.getThings().body))
        #expect(try await client.getLinks().body == (try await world.api.getLinks().body))
        #expect(try await client.sendCommand("flat_1_heating_setpoint", "22").status == .ok)
        #expect(try await client.getItemState("flat_1_heating_setpoint").body == (try await world.state("flat_1_heating_setpoint")))
        #expect(try await client.getItem("flat_1_heating_setpoint").body == (try await world.api.getItem("flat_1_heating_setpoint").body))
        #expect(try await client.putItem("extra", body: ItemDTO(type: "Switch", name: "extra")).status == .created)
        #expect(try await client.updateState("extra", "ON").status == .accepted)
        #expect(await capture { () async throws(SmartHomeError) in _ = try await client.getItem("bad name") }?.code == .itemNotFound)
        #expect(await capture { () async throws(SmartHomeError) in _ = try await client.putItem("extra", body: nil) }?.code == .missingBody)
        let direct = await capture { () async throws(SmartHomeError) in _ = try await world.api.sendCommand("flat_1_heating_switch", "on") }
        let overBytes = await capture { () async throws(SmartHomeError) in _ = try await client.sendCommand("flat_1_heating_switch", "on") }
        #expect(overBytes == direct)
        #expect(overBytes?.message.contains("send ON, OFF or toggle") == true)
        let user = OpenHABRESTClient(transport: router(world), credentials: OpenHABCredentials(bearerToken: TestWorld.userToken))
        #expect(await capture { () async throws(SmartHomeError) in _ = try await user.getThings() }?.code == .forbidden)
    }

    @Test("against a server without the twin's headers, errors are inferred from status and call")
    func inferredErrors() async throws {
        struct PlainOpenHAB: OpenHABTransport {
            let inner: OpenHABRouter
            func send(_ request: OpenHABRequest) async throws(SmartHomeError) -> OpenHABResponse {
                var response = await inner.handle(request)
                response.headers[OpenHABResponse.errorCodeHeader] = nil
                response.headers[OpenHABResponse.errorMessageHeader] = nil
                return response
            }
        }
        let world = try await TestWorld()
        let client = OpenHABRESTClient(transport: PlainOpenHAB(inner: router(world)))
        let missing = await capture { () async throws(SmartHomeError) in _ = try await client.getItem("nope") }
        #expect(missing == SmartHomeError(.itemNotFound, "Item nope does not exist!"))
        let bad = await capture { () async throws(SmartHomeError) in _ = try await client.sendCommand("flat_1_heating_switch", "on") }
        #expect(bad?.code == .invalidCommand)
        #expect(bad?.message == "openHAB answered 400 to POST /rest/items/flat_1_heating_switch.")
    }

    private func capture(_ body: () async throws(SmartHomeError) -> Void) async -> SmartHomeError? {
        do { try await body() } catch { return error }
        return nil
    }
}
