// swift-tools-version: 6.1
// RentalTwin — a deterministic digital twin of a smart short-term rental.
// No package dependencies: the Swift toolchain and system C libraries only.
import PackageDescription

let strict: [SwiftSetting] = [
    .swiftLanguageMode(.v6),
]

let package = Package(
    name: "RentalTwin",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "rental-twin", targets: ["RentalTwinCLI"]),
        .library(name: "Simulation", targets: ["Simulation"]),
        .library(name: "SmartHome", targets: ["SmartHome"]),
        .library(name: "Physics", targets: ["Physics"]),
        .library(name: "Weather", targets: ["Weather"]),
        .library(name: "Devices", targets: ["Devices"]),
        .library(name: "Booking", targets: ["Booking"]),
        .library(name: "Reports", targets: ["Reports"]),
        .library(name: "ScenarioFormat", targets: ["ScenarioFormat"]),
        .library(name: "Twin", targets: ["Twin"]),
        .library(name: "Scenarios", targets: ["Scenarios"]),
        .library(name: "HTTPServer", targets: ["HTTPServer"]),
        .library(name: "Rules", targets: ["Rules"]),
        .library(name: "Serve", targets: ["Serve"]),
        .library(name: "RemoteTransports", targets: ["RemoteTransports"]),
        .library(name: "JavaScript", targets: ["JavaScript"]),
    ],
    targets: [
        // Virtual clock, event queue, scheduler, seeded random numbers, local calendar.
        .target(name: "Simulation", swiftSettings: strict),
        // The openHAB model: UIDs, Items, States, Commands, Things, Links, event bus, REST-shaped API.
        .target(name: "SmartHome", dependencies: ["Simulation"], swiftSettings: strict),
        // Pure thermal maths of the 1R1C zone (closed forms, crossing times).
        .target(name: "Physics", dependencies: ["Simulation"], swiftSettings: strict),
        // Weather sources, the OpenWeatherMap wire model, the fake feed and the OWM client.
        .target(name: "Weather", dependencies: ["Simulation"], swiftSettings: strict),
        // Thing handlers (thermostat, smart plug, smart lock) and the thermal zone they share.
        .target(name: "Devices", dependencies: ["Simulation", "SmartHome", "Physics"], swiftSettings: strict),
        // The system SQLite library (libsqlite3-dev), no package dependency.
        .systemLibrary(name: "CSQLite", path: "Sources/CSQLite", pkgConfig: "sqlite3", providers: [.apt(["libsqlite3-dev"])]),
        .systemLibrary(name: "CMalloc", path: "Sources/CMalloc"),
        // The system under test: booking domain and services, SQLite store, home service, weather service, automations.
        .target(name: "Booking", dependencies: ["Simulation", "SmartHome", "Physics", "Weather", "CSQLite"], swiftSettings: strict),
        // Reports from exact meter snapshots: energy-daily.csv, stays.csv, timeseries.csv, SVG charts.
        .target(name: "Reports", dependencies: ["Simulation"], swiftSettings: strict),
        // The scenario file as values: JSON parser with lines, model, decoder, validator with located errors, rule files.
        .target(
            name: "ScenarioFormat",
            dependencies: ["Simulation", "SmartHome", "Weather", "Devices", "Booking", "Reports", "Rules", "JavaScript"],
            swiftSettings: strict
        ),
        // The twin: the one composition root (`World`) behind a narrow façade — act, read, advance, meters, outbox, persistence.
        .target(
            name: "Twin",
            dependencies: ["ScenarioFormat", "Simulation", "SmartHome", "Physics", "Weather", "Devices", "Booking", "Reports", "Rules", "JavaScript"],
            swiftSettings: strict
        ),
        // Running scenarios: the runner and expectations, suite, fuzzer, generator, report files, JUnit, partitions.
        .target(
            name: "Scenarios",
            dependencies: ["ScenarioFormat", "Twin", "Simulation", "SmartHome", "Weather", "Booking", "Reports", "Rules", "CMalloc"],
            swiftSettings: strict
        ),
        // A dependency-free HTTP/1.1 server on POSIX sockets: parsing, keep-alive, limits, streams, shutdown.
        .target(name: "HTTPServer", swiftSettings: strict),
        // openHAB rules on the virtual clock: the rule engine, the Rules DSL (parser, checker, interpreter), UI rules' model, cron, `/rest/rules`.
        .target(name: "Rules", dependencies: ["Simulation", "SmartHome"], swiftSettings: strict),
        // JavaScript (openhab-js) rules run by a Node.js child process: the runtime (a resource), the protocol, the session.
        .target(name: "JavaScript", dependencies: ["Rules", "Simulation", "SmartHome"], resources: [.copy("Runtime")], swiftSettings: strict),
        // The URLSession transports to a remote openHAB and OpenWeatherMap: apart, so that rental-twin does not
        // load FoundationNetworking and its ~30 libraries at every start (about 8 ms).
        .target(name: "RemoteTransports", dependencies: ["Weather", "SmartHome"], swiftSettings: strict),
        // `serve`: a scenario's live run on a socket — openHAB REST and events, OpenWeatherMap, the booking API, twin control.
        .target(name: "Serve", dependencies: ["Scenarios", "ScenarioFormat", "Twin", "Booking", "HTTPServer", "Rules", "Simulation", "SmartHome", "Weather"], swiftSettings: strict),
        // The command line: argument parsing, exit codes, printing. It reaches the twin only through its façade (Twin), Scenarios and Serve.
        .executableTarget(
            name: "RentalTwinCLI",
            dependencies: ["Scenarios", "ScenarioFormat", "Twin", "Serve", "Simulation", "JavaScript"],
            swiftSettings: strict
        ),

        .testTarget(name: "SimulationTests", dependencies: ["Simulation"], swiftSettings: strict),
        .testTarget(name: "SmartHomeTests", dependencies: ["SmartHome", "Simulation"], swiftSettings: strict),
        .testTarget(name: "PhysicsTests", dependencies: ["Physics", "Simulation"], swiftSettings: strict),
        .testTarget(name: "WeatherTests", dependencies: ["Weather", "Simulation", "RemoteTransports"], swiftSettings: strict),
        .testTarget(name: "DevicesTests", dependencies: ["Devices", "SmartHome", "Simulation", "Physics", "TwinTesting"], swiftSettings: strict),
        .testTarget(
            name: "BookingTests",
            dependencies: ["Booking", "Simulation", "SmartHome", "Devices", "Weather", "Physics", "TwinTesting"],
            swiftSettings: strict
        ),
        .testTarget(name: "ReportsTests", dependencies: ["Reports", "Simulation"], exclude: ["Golden"], swiftSettings: strict),
        .testTarget(name: "ScenariosTests", dependencies: ["Scenarios", "ScenarioFormat", "Twin", "Simulation", "SmartHome"], swiftSettings: strict),
        // The blocking loopback client the socket tests of HTTPServer and Serve share (not a product).
        // A small world with its parts in reach, for the lower layers' tests (DevicesTests, BookingTests; not a product).
        .target(
            name: "TwinTesting",
            dependencies: ["Twin", "ScenarioFormat", "Simulation", "SmartHome", "Devices", "Booking", "Weather", "Rules"],
            path: "Tests/TwinTesting", swiftSettings: strict
        ),
        .target(name: "SocketTestSupport", dependencies: ["HTTPServer"], path: "Tests/SocketTestSupport", swiftSettings: strict),
        .testTarget(name: "HTTPServerTests", dependencies: ["HTTPServer", "Simulation", "SocketTestSupport"], swiftSettings: strict),
        .testTarget(name: "JavaScriptTests", dependencies: ["JavaScript", "Scenarios", "ScenarioFormat", "Twin", "Rules", "Simulation", "SmartHome"], swiftSettings: strict),
        .testTarget(name: "RulesTests", dependencies: ["Rules", "Simulation", "SmartHome"], exclude: ["JavaSurface"], swiftSettings: strict),
        .testTarget(name: "ServeTests", dependencies: ["Serve", "Scenarios", "ScenarioFormat", "Twin", "HTTPServer", "Rules", "Simulation", "SmartHome", "SocketTestSupport", "RemoteTransports"], swiftSettings: strict),
        .testTarget(name: "RentalTwinCLITests", dependencies: ["RentalTwinCLI", "Scenarios", "ScenarioFormat", "Twin", "Simulation", "SocketTestSupport"], swiftSettings: strict),
    ]
)
