import Foundation
import HTTPServer
import ScenarioFormat
import Scenarios
import Simulation
import Synchronization
import Twin

/// A scenario's world on a socket: the live run of ``LiveScenarioRun`` behind one HTTP server
/// that speaks openHAB's REST API, OpenWeatherMap's and the twin's own (``ServeRouter``).
///
/// **Lifecycle** (owned by ``run()``): ``start()`` binds the port (``port`` is then known);
/// ``run()`` runs the kernel live and serves until ``stop()`` or cancellation, then stops the
/// HTTP server first — open responses finish while the simulation still runs, event streams
/// end — then the kernel, and returns the result.
public final class TwinServer: Sendable {
    /// How to serve.
    public struct Configuration: Sendable {
        /// The IPv4 address to listen on (loopback by default).
        public var host: String
        /// The TCP port (0: a free one, read ``TwinServer/port``).
        public var port: Int
        /// `paced(speed:)` or `manual`.
        public var clock: SimulationKernel.LiveMode
        /// The token with the administrator role.
        public var adminToken: String
        /// The HTTP server's limits.
        public var limits: HTTPServerLimits
        /// The most messages one SSE client may have waiting before it is disconnected.
        public var eventBufferLimit: Int
        /// The wall time between SSE `alive` events (openHAB: 10 s).
        public var aliveInterval: Duration
        /// The bounds on each `/ws` WebSocket connection.
        public var webSocketLimits: WebSocketLimits

        /// Creates a configuration.
        public init(host: String = "127.0.0.1", port: Int = 8080, clock: SimulationKernel.LiveMode = .paced(speed: 60),
                    adminToken: String, limits: HTTPServerLimits = .defaults, eventBufferLimit: Int = 1_024,
                    aliveInterval: Duration = .seconds(10), webSocketLimits: WebSocketLimits = WebSocketLimits()) {
            self.webSocketLimits = webSocketLimits
            self.host = host
            self.port = port
            self.clock = clock
            self.adminToken = adminToken
            self.limits = limits
            self.eventBufferLimit = eventBufferLimit
            self.aliveInterval = aliveInterval
        }
    }

    /// The run being served.
    public let live: LiveScenarioRun
    /// How it is served.
    public let configuration: Configuration
    /// Answers the requests.
    public let router: ServeRouter
    private let http: HTTPServer
    private let stopRequest = Mutex<(requested: Bool, waiter: CheckedContinuation<Void, Never>?)>((false, nil))

    /// Prepares `scenario`'s world at its start; nothing is bound until ``start()``.
    /// - Throws: ``ScenarioError`` when the world cannot be built.
    public init(scenario: Scenario, configuration: Configuration) async throws(ScenarioError) {
        live = try await LiveScenarioRun.prepare(scenario)
        self.configuration = configuration
        let router = ServeRouter(run: live, clock: configuration.clock, adminToken: configuration.adminToken,
                                 eventBufferLimit: configuration.eventBufferLimit, aliveInterval: configuration.aliveInterval,
                                 webSocketLimits: configuration.webSocketLimits)
        self.router = router
        http = HTTPServer(host: configuration.host, port: configuration.port, limits: configuration.limits) { request in
            await router.handle(request)
        }
    }

    /// The bound port once started.
    public var port: Int { http.port }

    /// What has been served.
    public var counters: ServeCounters { router.counters }

    /// Binds and listens; requests wait for the simulation until ``run()`` starts it.
    /// - Throws: ``ServeError`` `serve.bindFailed`.
    public func start() throws(ServeError) {
        do { try http.start() } catch {
            throw ServeError(.bindFailed, "Cannot serve on \(configuration.host):\(configuration.port): \(error.message) Choose another --port (or 0 for a free one).")
        }
    }

    /// Runs the simulation live and serves until ``stop()`` or cancellation; then finishes open
    /// responses, stops the simulation and returns its result.
    /// - Throws: ``ServeError`` `serve.bindFailed` when not started and the port cannot be bound;
    ///   `serve.runFailed` when the live run cannot start.
    public func run() async throws(ServeError) -> LiveScenarioResult {
        if http.port == 0 { try start() }
        // Not a child task: cancelling run() must not cancel the live run before the HTTP server has
        // stopped, or handlers still waiting on the simulation (a long /twin/advance) would wait forever.
        // On a thread of its own (``ThreadExecutor``): requests are answered even while other work keeps the pool busy.
        let thread = ThreadExecutor(name: "rental-twin live run")
        defer { thread.shutdown() }
        let simulation = Task(executorPreference: thread) { [live, configuration] () -> ScenarioError? in  // simulation task: the live run, the only task that runs this world's events
            do throws(ScenarioError) { try await live.run(configuration.clock) } catch { return error }
            return nil
        }
        await withTaskCancellationHandler {
            await waitForStopRequest()
        } onCancel: {
            stop()
        }
        await http.stop()
        live.stop()
        simulation.cancel()  // also ends a run that had not begun when stop() came (the kernel's stop is then a no-op)
        let failure = await simulation.value
        if let failure { throw ServeError(.runFailed, failure.message) }
        return await live.resultSoFar()
    }

    /// Serves while `client` runs beside the server, then stops it: the shape of every in-process use
    /// (tests, `fuzz --target http`). `client` talks to the server over ``port``.
    /// - Returns: the live run's result and what `client` returned.
    /// - Throws: what ``run()`` or `client` throws.
    public func serving<Value: Sendable>(_ client: @escaping @Sendable () async throws -> Value) async throws -> (result: LiveScenarioResult, value: Value) {
        return try await withThrowingTaskGroup(of: ServingEnd<Value>.self) { group in
            group.addTask { .server(try await self.run()) }  // simulation task: the server and its live run
            group.addTask {  // wall-clock: the client side, outside the simulation task; it reaches the world only over the server's socket
                defer { self.stop() }
                return .client(try await client())
            }
            var result: LiveScenarioResult?
            var value: Value?
            while let next = try await group.next() {
                switch next {
                case .server(let finished): result = finished
                case .client(let returned): value = returned
                }
            }
            guard let result, let value else { throw ServeError(.runFailed, "the server or its client ended without an answer.") }
            return (result, value)
        }
    }

    /// Asks ``run()`` to finish (idempotent; callable from any thread, e.g. a signal handler).
    public func stop() {
        let waiter = stopRequest.withLock { state in
            state.requested = true
            return state.waiter.take()
        }
        waiter?.resume()
    }

    private func waitForStopRequest() async {
        await withCheckedContinuation { continuation in
            let already = stopRequest.withLock { state in
                if state.requested { return true }
                state.waiter = continuation
                return false
            }
            if already { continuation.resume() }
        }
    }
}

/// Which side of ``TwinServer/serving(_:)`` ended, with what it gave.
private enum ServingEnd<Value: Sendable>: Sendable {
    case server(LiveScenarioResult)
    case client(Value)
}
