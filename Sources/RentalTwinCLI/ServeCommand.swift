import Foundation
import ScenarioFormat
import Scenarios
import Serve
import Simulation
import Twin

/// `serve FILE`: the scenario's twin on a socket until interrupted (SERVE.md).
///
/// Prints while it runs (the URLs and the admin token at start, a status line a minute of wall
/// time); the outcome carries the result printed at the end.
enum ServeCommand {
    static func run(_ command: ArgumentParser.ParsedCommand) async throws(ArgumentParser.UsageError) -> RentalTwinCommand.Outcome {
        var outcome = RentalTwinCommand.Outcome()
        outcome.endsOnInterrupt = true
        let file = command.positionals[0]
        let port = try command.integer(.port, default: 8080)
        guard port <= 65_535 else { throw ArgumentParser.UsageError("--port must be between 0 and 65535, not \(port).", command: "serve") }
        let host = command.value(.host) ?? "127.0.0.1"
        let speedText = command.value(.speed) ?? "60"
        guard let speed = Double(speedText), speed > 0, speed.isFinite else {
            throw ArgumentParser.UsageError("--speed needs a positive number of virtual seconds per wall second, such as 1 or 60, not \"\(speedText)\".",
                                            command: "serve")
        }
        let clock: SimulationKernel.LiveMode
        switch command.value(.clock) ?? "paced" {
        case "paced": clock = .paced(speed: speed)
        case "manual": clock = .manual
        case let other:
            throw ArgumentParser.UsageError("--clock is paced or manual, not \"\(other)\".", command: "serve")
        }
        if command.has(.speed), clock == .manual {
            throw ArgumentParser.UsageError("--speed paces the clock; with --clock manual time moves only on POST /twin/advance. Drop one of them.",
                                            command: "serve")
        }
        let token = command.value(.token) ?? randomToken()
        guard !token.isEmpty, token.allSatisfy({ $0.isASCII && !$0.isWhitespace }) else {
            throw ArgumentParser.UsageError("--token needs a non-empty token of printable ASCII without blanks.", command: "serve")
        }

        let server: TwinServer
        do {
            let scenario = try ScenarioDecoder.load(path: file)
            server = try await TwinServer(scenario: scenario, configuration: TwinServer.Configuration(
                host: host, port: port, clock: clock, adminToken: token))
            try server.start()
        } catch let error as ScenarioError {
            outcome.standardError = error.explanation + "\n"
            outcome.exitCode = error.code == .invalid || error.code == .unreadable ? .invalidInput : .failure
            return outcome
        } catch {
            outcome.standardError = "error: \((error as? ServeError)?.message ?? "\(error)")\n"
            outcome.exitCode = .ioError
            return outcome
        }
        if !["127.0.0.1", "localhost"].contains(host), !host.hasPrefix("127.") {
            say("warning: serving on \(host), not loopback: anyone who reaches this address can read and command the twin "
                + "(anonymous clients have openHAB's user role).\n", to: STDERR_FILENO)
        }
        say(banner(server, file: file), to: STDOUT_FILENO)

        let result: LiveScenarioResult
        do {
            result = try await withThrowingTaskGroup(of: LiveScenarioResult?.self) { group in
                group.addTask { try await server.run() }  // simulation task: the server and its live run
                group.addTask {  // wall-clock: one status line a minute of wall time, for the person watching
                    while true {
                        do { try await Task.sleep(for: .seconds(60)) } catch { return nil }  // wall-clock: the status line's period
                        say(await status(server), to: STDOUT_FILENO)
                    }
                }
                var found: LiveScenarioResult?
                while let next = try await group.next() {
                    if let next { found = next; group.cancelAll() }
                }
                guard let found else { throw ServeError(.runFailed, "the server ended without a result.") }
                return found
            }
        } catch is CancellationError {
            // Unreachable in practice: the server turns cancellation into a stop and returns its result.
            outcome.exitCode = .interrupted
            return outcome
        } catch {
            outcome.standardError = "error: \((error as? ServeError)?.message ?? "\(error)")\n"
            outcome.exitCode = .failure
            return outcome
        }
        outcome.standardOutput = describe(result, path: file)
        outcome.exitCode = result.result.passed ? .success : .failure
        return outcome
    }

    /// The URLs, the token and how to stop.
    static func banner(_ server: TwinServer, file: String) -> String {
        let configuration = server.configuration
        let root = "http://\(configuration.host):\(server.port)"
        let scenario = server.live.scenario
        let city = scenario.weather.first?.city ?? "Budapest"
        let clock: String
        switch configuration.clock {
        case .manual: clock = "manual (POST \(root)/twin/advance moves it)"
        case .paced(let speed): clock = "paced, \(speed < 1e15 && speed == speed.rounded() ? String(Int(speed)) : String(speed))× wall time"
        }
        return """
            Serving \(TerminalText.escaped(scenario.name)) (\(TerminalText.escaped(file))) on \(root) — clock \(clock)
              openHAB REST     \(root)/rest/
              openHAB events   \(root)/rest/events?topics=openhab/items/*/statechanged  (WebSocket: ws://\(configuration.host):\(server.port)/ws)
              OpenWeatherMap   \(root)/data/2.5/weather?q=\(city)&appid=\(World.weatherAPIKey)  (or as HTTP proxy: http://api.openweathermap.org/…)
              booking API      \(root)/api/listings?city=\(city)  (every endpoint: \(root)/openapi.json)
              twin control     \(root)/twin/clock  /twin/advance  /twin/faults  /twin/result
              admin token      \(configuration.adminToken)  (X-OPENHAB-TOKEN, Bearer, or Basic with the token as user)
            Ctrl-C stops and prints the result.

            """
    }

    /// `2026-11-20T12:00 (virtual) · 120 requests · 4,311 bus events, 57 streamed`.
    static func status(_ server: TwinServer) async -> String {
        let world = server.live.world
        let at = world.scenario.calendar.localDateTime(at: world.now)
        let counters = server.counters
        return "\(at) (virtual) · \(counters.requestCount) requests · \(world.busEventsPublished) bus events, "
            + "\(counters.eventsStreamed) streamed\n"
    }

    /// The result: PASS, FAIL or PENDING, figures, failures and what is still pending.
    static func describe(_ live: LiveScenarioResult, path: String) -> String {
        let result = live.result
        let calendar = result.scenario.calendar
        let verdict = live.verdict == "pending" ? "PENDING" : live.verdict == "pass" ? "PASS   " : "FAIL   "
        var text = "\(verdict) \(TerminalText.escaped(path)) — \(TerminalText.escaped(result.scenario.name))\n"
        text += "    stopped at \(calendar.localDateTime(at: live.now)) (virtual), \(result.stepsRun) step(s), "
            + "\(result.expectationsChecked) expectation(s) checked, \(live.pending.count) pending, \(result.kernelEvents) kernel events\n"
        for failure in result.failures { text += "    \(failure)\n" }
        for expectation in live.pending {
            text += "    pending \(expectation.path) (line \(expectation.line)) at \(calendar.localDateTime(at: expectation.at ?? result.scenario.end))\n"
        }
        return text
    }

    private static func say(_ text: String, to descriptor: Int32) {
        _ = StandardStreams.write(text, to: descriptor)
    }

    /// An API token in openHAB's format, `oh.<name>.<random>` (`UserRegistryImpl.addUserApiToken`: 64
    /// random bytes in Base64 without `+`, `/` and `=`), from the system's random source (not the
    /// simulation's: a secret, not a model input). Clients such as HABApp recognise a token by its `oh.` prefix.
    private static func randomToken() -> String {
        var generator = SystemRandomNumberGenerator()
        let bytes = (0..<64).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
        return "oh.rentaltwin." + Data(bytes).base64EncodedString().filter { $0 != "+" && $0 != "/" && $0 != "=" }
    }
}
