import Foundation
import HTTPServer
import Rules
import ScenarioFormat
import Scenarios
import Simulation
import SmartHome
import Twin

/// `/twin/clock`, `/twin/advance`, `/twin/faults`, `/twin/result`: the twin's own controls.
extension ServeRouter {
    /// The twin's controls, rows of ``routes``.
    static let twinRoutes: [RESTRoute<Handler>] = [
        .init(.get, "/twin/clock") { router, _ in encoded(200, await router.world.submit { [router] in router.clockDTO(fired: nil) }) },
        .init(.get, "/twin/result") { router, _ in
            let run = router.run
            let live = await router.world.submit { await run.resultSoFar() }
            return encoded(200, TwinResultDTO(live))
        },
        .init(.post, "/twin/advance") { router, request in
            do throws(ServeError) { return try await router.advance(String(decoding: request.body, as: UTF8.self)) } catch { return failure(error) }
        },
        .init(.post, "/twin/faults") { router, request in
            do throws(ServeError) { return try await router.fault(Array(request.body)) } catch { return failure(error) }
        },
    ]

    /// The clock now, on the simulation.
    func clockDTO(fired: Int?) -> TwinClockDTO {
        let calendar = run.scenario.calendar
        let now = world.now
        let mode: String, speed: Double?
        switch clock {
        case .manual: (mode, speed) = ("manual", nil)
        case .paced(let s): (mode, speed) = ("paced", s)
        }
        return TwinClockDTO(now: calendar.isoZonedText(at: now), local: calendar.localDateTime(at: now).description,
                            unixMillis: now.unixMilliseconds, mode: mode, speed: speed,
                            start: calendar.localDateTime(at: run.scenario.start).description,
                            end: calendar.localDateTime(at: run.scenario.end).description, endReached: run.endReached,
                            eventsFired: fired)
    }

    /// How far past the scenario's end `/twin/advance` may move the clock: a week, room to watch
    /// what follows the last step without letting one request simulate without end.
    public static let advanceMargin = SimDuration.days(7)

    /// The virtual time one advance runs between looks at whether its client left or the server
    /// stops: an advance is a series of advances by at most this much, each a kernel request.
    static let advanceSlice = SimDuration.hours(1)

    /// `POST /twin/advance`: a body `PT1H` (an ISO 8601 duration) or `{"to": "2026-11-20T12:00"}`.
    ///
    /// Refused past the scenario's end plus ``advanceMargin`` (`serve.advanceTooFar`). The clock
    /// moves in slices of ``advanceSlice``; between slices the advance stops when its task is
    /// cancelled — the client disconnected or the server is stopping (the HTTP connection cancels
    /// its handler then) — and answers `serve.advanceInterrupted` with the clock where it stopped.
    /// A single client's sliced advance fires the same events at the same instants as one whole
    /// advance (each slice runs every event due up to and including its end).
    private func advance(_ body: String) async throws(ServeError) -> HTTPResponse {
        guard clock == .manual else {
            throw ServeError(.clockConflict, "The clock is paced (virtual time follows wall time); /twin/advance works only with serve --clock manual.")
        }
        // A submission runs only once the live run is going: after it, the advance is queued to that run
        // (before the run starts, advance(to:) would run the kernel itself, racing the live run).
        await world.submit {}
        let text = body.trimmingCharacters(in: .whitespacesAndNewlines)
        let calendar = run.scenario.calendar
        let limit = run.scenario.end + Self.advanceMargin
        let now = world.now
        let tooFar = { (what: String) in
            ServeError(.advanceTooFar, "Cannot advance to \(what): one advance may reach at most the scenario's end plus \(ISODuration.format(Self.advanceMargin)), "
                       + "\(calendar.localDateTime(at: limit)) (the clock is at \(calendar.localDateTime(at: now))). Advance to a time before then.")
        }
        let target: SimInstant
        if text.hasPrefix("{") {
            guard let to = (try? JSONParser.parse(text))?["to"]?.stringValue else {
                throw ServeError(.badRequest, "The body of /twin/advance is JSON without a \"to\" string; send {\"to\": \"2026-11-20T12:00\"} or a duration like PT1H.")
            }
            do { target = try calendar.parseInstant(to) } catch {
                throw ServeError(.badRequest, "\"to\": \(error.message) Write a date-time like 2026-11-20T12:00 (local time in \(calendar.identifier)) or with an offset.")
            }
            if target > limit { throw tooFar(String(to.prefix(80))) }
        } else {
            let duration: SimDuration
            do { duration = try ISODuration.parse(text) } catch {
                throw ServeError(.badRequest, "The body of /twin/advance, \"\(text.prefix(80))\", is not an ISO 8601 duration: \(error.message) Send e.g. PT15M, PT1H or P1D, or {\"to\": \"<date-time>\"}.")
            }
            guard duration > .zero else { throw ServeError(.badRequest, "Advance by a positive duration such as PT1M, not \(text.prefix(80)).") }
            // Compared as durations first: now + duration could overflow for an absurd duration.
            if duration > limit - now { throw tooFar("now + \(ISODuration.format(duration))") }
            target = now + duration
        }
        guard target >= now else {
            throw ServeError(.clockConflict, "Cannot advance to \(calendar.localDateTime(at: target)): the clock is already at \(calendar.localDateTime(at: now)).")
        }
        var fired = 0
        var reached = now
        while reached < target {
            if Task.isCancelled {
                let at = clockDTO(fired: fired)  // read directly: the live run may be stopping, a submission might never run
                throw ServeError(.advanceInterrupted, "The advance to \(calendar.localDateTime(at: target)) stopped at \(at.local) after \(fired) event(s): "
                                 + "its client disconnected or the server is stopping.")
            }
            let next = target - reached > Self.advanceSlice ? reached + Self.advanceSlice : target
            do { fired += try await world.advance(to: next) } catch {
                throw ServeError(.clockConflict, "Cannot advance to \(calendar.localDateTime(at: next)): \(error.message)")
            }
            reached = next
        }
        return Self.encoded(200, await world.submit { [self, fired] in clockDTO(fired: fired) })
    }

    /// `POST /twin/faults`: `{"thing": {"thing": "kiez/heating", "status": "OFFLINE"}}` or
    /// `{"feed": {"city": "Berlin", "error": 500}}` (`null` clears), as the timeline's steps.
    private func fault(_ body: [UInt8]) async throws(ServeError) -> HTTPResponse {
        let usage = "Send {\"thing\": {\"thing\": \"listing/device\", \"status\": \"ONLINE\" or \"OFFLINE\"}}, {\"feed\": {\"city\": \"Name\", \"error\": 401, 404, 429, 500 or null}} "
            + "or {\"trigger\": {\"channel\": \"astro:sun:home:set#event\", \"event\": \"START\"}}."
        guard let object = try? JSONParser.parse(bytes: body), let members = object.members, members.count == 1 else {
            throw ServeError(.badRequest, "The body of /twin/faults is not one fault. " + usage)
        }
        let action: Step.Action
        if let thing = object["thing"] {
            guard let id = thing["thing"]?.stringValue, let status = thing["status"]?.stringValue, ["ONLINE", "OFFLINE"].contains(status) else {
                throw ServeError(.badRequest, "A thing fault needs \"thing\" and a \"status\" of ONLINE or OFFLINE. " + usage)
            }
            action = .thing(thing: id, online: status == "ONLINE")
        } else if let feed = object["feed"] {
            guard let city = feed["city"]?.stringValue, let error = feed["error"] else {
                throw ServeError(.badRequest, "A feed fault needs \"city\" and \"error\". " + usage)
            }
            var code: Int?
            if !error.isNull {
                guard let number = error.intValue, [401, 404, 429, 500].contains(number) else {
                    throw ServeError(.badRequest, "The feed can fail with 401, 404, 429 or 500 (null clears the fault). " + usage)
                }
                code = number
            }
            action = .feed(city: city, error: code)
        } else if let trigger = object["trigger"] {
            // A trigger channel's event, as the scenario's "trigger" step fires it (a binding's event, such as a sunset).
            guard let channel = trigger["channel"]?.stringValue, let event = trigger["event"]?.stringValue, !event.isEmpty else {
                throw ServeError(.badRequest, "A trigger needs \"channel\" and a non-empty \"event\". " + usage)
            }
            if let problem = ChannelUIDSyntax.problem(channel) {
                throw ServeError(.badRequest, "\(JSONString.quoted(String(channel.prefix(120)))) is not a channel UID: \(problem). " + usage)
            }
            action = .trigger(channel: channel, event: event)
        } else {
            throw ServeError(.badRequest, "Unknown fault \(members.map(\.key).sorted().joined(separator: ", ")). " + usage)
        }
        let run = run
        if let refusal = await world.submit({ await run.perform(action) }) {
            throw ServeError(.faultRefused, "\(action.summary) was refused: \(refusal.code): \(refusal.message)")
        }
        return Self.json(200, "{\"applied\":\(JSONString.quoted(action.summary))}")
    }

    static func encoded<T: Encodable>(_ status: Int, _ value: T) -> HTTPResponse {
        do throws(SimulationError) {
            return HTTPResponse(status: status, headers: ["Content-Type": "application/json"], body: Array(try OrderedJSONEncoder().encode(value)))
        } catch {
            return HTTPResponse(status: 500, text: "The answer could not be written as JSON: \(error.message)")
        }
    }
}
