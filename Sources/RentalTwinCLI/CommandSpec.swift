/// What the command line offers: every command with its arguments, options and help text.
struct CommandSpec: Sendable {
    /// One `--name VALUE` option or `--name` flag.
    struct Option: Sendable {
        let name: String
        let valueName: String?
        let help: String
    }

    let name: String
    let abstract: String
    let arguments: String
    let minPositionals: Int
    let maxPositionals: Int?
    let options: [Option]
    let discussion: String
    /// `nil` when available; otherwise which piece of work brings it.
    let arrivesWith: String?

    /// Every command, in the order `--help` lists them.
    static let all: [CommandSpec] = [
        CommandSpec(
            name: "run", abstract: "Run one scenario and check its expectations.",
            arguments: "FILE", minPositionals: 1, maxPositionals: 1,
            options: [
                Option(name: "--report", valueName: "DIR", help: "Write energy-daily.csv and stays.csv to DIR."),
                Option(name: "--seed", valueName: "N", help: "Override the scenario's seed (a non-negative integer)."),
            ],
            discussion: "Prints each failed expectation with expected and actual values.\nExit status: 0 all hold, 1 some failed, 64 bad usage, 65 invalid scenario file.",
            arrivesWith: "the scenario runner (issue 5)"),
        CommandSpec(
            name: "suite", abstract: "Run every *.json scenario below DIR, sorted by path.",
            arguments: "DIR", minPositionals: 1, maxPositionals: 1,
            options: [
                Option(name: "--junit", valueName: "FILE", help: "Write a JUnit XML report (one testcase per scenario)."),
                Option(name: "--report", valueName: "DIR", help: "Write each scenario's reports below DIR."),
                Option(name: "--jobs", valueName: "N", help: "Run N scenarios in parallel (output is identical to a serial run)."),
            ],
            discussion: "Prints one line per scenario and ends with \"N passed, N failed\".\nExit status: 0 all passed, 1 any failed, 65 any invalid.",
            arrivesWith: "the scenario runner (issue 5)"),
        CommandSpec(
            name: "validate", abstract: "Check scenario files without running them.",
            arguments: "FILE...", minPositionals: 1, maxPositionals: nil, options: [],
            discussion: "Prints one message per problem: file, JSON path, line, what was expected, and a hint.\nExit status: 0 valid, 65 invalid.",
            arrivesWith: "the scenario runner (issue 5)"),
        CommandSpec(
            name: "demo", abstract: "Run the built-in demo world in virtual time and print what happened.",
            arguments: "", minPositionals: 0, maxPositionals: 0,
            options: [
                Option(name: "--days", valueName: "N", help: "Simulated days to run, 1–3660 (default 2)."),
            ],
            discussion: "A flat in Budapest: openHAB Things, Items and Links built through the REST-shaped API,\ncommands routed to Thing handlers, events on the bus, all on the virtual clock.\nExit status: 0.",
            arrivesWith: nil),
        CommandSpec(
            name: "bench", abstract: "Benchmark: one heated flat against diurnal weather; prints events and speed.",
            arguments: "", minPositionals: 0, maxPositionals: 0,
            options: [Option(name: "--days", valueName: "N", help: "Simulated days, 1–3660 (default 365).")],
            discussion: "Build with -c release for meaningful figures: swift run -c release rental-twin bench.\nExit status: 0.",
            arrivesWith: nil),
    ]

    /// The command called `name`, if any.
    static func named(_ name: String) -> CommandSpec? { all.first { $0.name == name } }
}
