import ScenarioFormat
import Scenarios
import Twin
/// The commands of the command line; dispatch switches over this, so a new command cannot fall
/// through to another one.
enum CommandName: String, CaseIterable, Sendable {
    case run, suite, validate, serve, demo, bench, fuzz, merge, `init`
}

/// What the command line offers: every command with its arguments, options and help text.
struct CommandSpec: Sendable {
    /// One `--name VALUE` option or `--name` flag, declared once below and shared by the commands that take it.
    struct Option: Sendable, Equatable {
        let name: String
        let valueName: String?
        let help: String

        static let report = Option(name: "--report", valueName: "DIR",
                                   help: "Write energy-daily.csv, stays.csv, timeseries.csv, kpi.csv, per listing an SVG chart and an iCalendar file of its reservations, and index.html, one page with the verdict, the expectations, a timeline and the charts, to DIR (suite: to DIR/<file without .json>/, and DIR/index.html over all scenarios).")
        static let coverage = Option(name: "--coverage", valueName: "FILE", help: "Write LCOV coverage of the scenarios' rule files to FILE (per rule: starts; per Rules DSL line: runs; per if/switch: branches taken), merged over the suite; genhtml reads it. The suite's summary names every rule no scenario started.")
        static let seed = Option(name: "--seed", valueName: "N", help: "A non-negative integer: run overrides the scenario's seed with it; fuzz seeds its mutations (default 1).")
        static let interval = Option(name: "--interval", valueName: "DURATION", help: "Sampling interval of timeseries.csv and the charts (default PT15M).")
        static let log = Option(name: "--log", valueName: nil, help: "Also print every step, every automation action with its reason, and every rule run (trigger, conditions, effects, log lines).")
        static let junit = Option(name: "--junit", valueName: "FILE", help: "Write a JUnit XML report (one testcase per scenario) to FILE.")
        static let shard = Option(name: "--shard", valueName: "K/N", help: "Run only shard K of N: every N-th file of the sorted list, from the K-th (a CI matrix runs K = 1…N; their JUnit files hold the cases of one whole run).")
        static let jobs = Option(name: "--jobs", valueName: "N", help: "Run N scenarios in parallel (output is identical to a serial run; default 1).")
        static let runJobs = Option(name: "--jobs", valueName: "N", help: "Run the portfolio's listings in parts, N at once, merged into exactly what one part writes (default: every core for a portfolio of 8 listings or more, else 1; a portfolio of 40 listings or more runs as parts of about 20 even with 1).")
        static let partition = Option(name: "--partition", valueName: "K/N", help: "Run only part K of N of the portfolio's listings (needs --report); rental-twin merge joins the N directories into the reports of one run. The part itself runs in parts on --jobs cores, the same bytes.")
        static let seams = Option(name: "--seams", valueName: "bytes|typed", help: "How the booking services and automations reach openHAB and the weather feed: bytes (default: REST requests and OpenWeatherMap JSON, as a deployment talks) or typed (in-process calls, faster; the same output byte for byte, which a test checks on every example and a generated portfolio).")
        static let days = Option(name: "--days", valueName: "N", help: "Simulated days, 1–3660 (demo: default 2; bench: default 365).")
        static let flats = Option(name: "--flats", valueName: "N", help: "Run the generated portfolio scenario with N flats, 1–10000 (heating, cooling, plug, lock, ~70 % occupancy) instead.")
        static let seconds = Option(name: "--seconds", valueName: "N", help: "Stop after N seconds of wall time (default 60).")
        static let inputs = Option(name: "--inputs", valueName: "N", help: "Stop after N inputs (whichever comes first).")
        static let from = Option(name: "--from", valueName: "N", help: "Start at input N (default 0). Input N is the same in every run with the same seed and corpus, so a long campaign can run in parts: --inputs 500000, then --from 500000.")
        static let corpus = Option(name: "--corpus", valueName: "DIR", help: "Seed scenarios: every *.json below DIR (default Scenarios).")
        static let out = Option(name: "--out", valueName: "DIR", help: "Write each finding's input to DIR/<kind>-<n>.json, and a mutated side file beside it (default .build/fuzz-findings).")
        static let target = Option(name: "--target", valueName: "LIST", help: "The kinds of file to mutate, comma-separated: \(FuzzTarget.all.map(\.name).joined(separator: ", ")) (default all of them); or http alone: mutated requests and WebSocket frames against an in-process serve (--inputs, default 2000); or partitions alone: mutated partition directories merged (--inputs, default 300); for these two, --seconds only when given, and whichever bound comes first stops the run.")
        static let events = Option(name: "--events", valueName: "N", help: "Kernel events one input may take per listing and simulated day before it counts as a hang (an event storm; default 100000, about 40 times the busiest example, 03, with reports on). A loop at one instant stops as run.stalled whatever the budget.")
        static let port = Option(name: "--port", valueName: "N", help: "The TCP port to serve on, 0–65535 (default 8080; 0 picks a free one and prints it).")
        static let host = Option(name: "--host", valueName: "ADDRESS", help: "The IPv4 address to listen on (default 127.0.0.1). Any other than loopback exposes the twin to the network; serve warns.")
        static let clock = Option(name: "--clock", valueName: "paced|manual", help: "paced (default): virtual time runs at --speed × wall time; manual: it stands still until POST /twin/advance.")
        static let speed = Option(name: "--speed", valueName: "X", help: "Virtual seconds per wall second of a paced clock, a positive number (default 60; 1 is real time).")
        static let token = Option(name: "--token", valueName: "T", help: "The admin token (default: a random one, printed at start).")
        static let strict = Option(name: "--strict", valueName: nil, help: "Make every warning an error: a file of openhabConf that openHAB refuses to load (and skips with a warning) makes the scenario invalid, for CI.")
        static let openhab = Option(name: "--openhab", valueName: "DIR", help: "init: openHAB's configuration directory ($OPENHAB_CONF: items/, things/, rules/, …) to write a scenario for.")
        static let outFile = Option(name: "--out", valueName: "FILE", help: "init: write the scenario to FILE (default: print it); FILE must not exist.")
        static let printScenario = Option(name: "--print-scenario", valueName: nil, help: "Print the built-in scenario as a scenario file instead of running it.")
        static let javaScript = Option(name: "--js", valueName: nil, help: "Measure JavaScript rules instead (needs Node.js): a rule run that reads two Items and posts one update, and starting the child and loading a 20 kB script.")
    }

    let name: CommandName
    let abstract: String
    let arguments: String
    let minPositionals: Int
    let maxPositionals: Int?
    let options: [Option]
    let discussion: String

    /// Every command, in the order `--help` lists them.
    static let all: [CommandSpec] = [
        CommandSpec(
            name: .run, abstract: "Run one scenario and check its expectations.",
            arguments: "FILE", minPositionals: 1, maxPositionals: 1,
            options: [.report, .seed, .interval, .log, .runJobs, .partition, .seams, .strict, .coverage],
            discussion: """
                Prints PASS or FAIL, what was simulated, and each failed expectation or step with its line,
                JSON path, local time, expected and actual values. Same file and seed, same output, byte for byte.
                A portfolio runs its listings in parts on every core (--jobs); listings that something couples
                (a shared reservation id, rules, virtual Items) stay in one part, and the output is the same
                bytes for any --jobs. With --partition K/N, part K does the same on this machine's cores. On a terminal a progress line (flats and simulated days done, ETA) shows
                on stderr; in CI logs it does not.

                EXAMPLES:
                  rental-twin run Scenarios/01-winter-weekend.json
                  rental-twin run Scenarios/01-winter-weekend.json --report Reports/winter --seed 7
                  rental-twin run portfolio.json --report Reports/all --jobs 2
                  rental-twin run portfolio.json --partition 3/16 --jobs 2 --report part-3   (then rental-twin merge)

                Reports are written all or none; a path held by a directory or another non-file is refused,
                never replaced.

                Exit status: 0 all hold, 1 some failed, 64 bad usage, 65 invalid scenario file, 74 reports not written.
                """),
        CommandSpec(
            name: .merge, abstract: "Join the partition directories of run --partition K/N into one run's result and reports.",
            arguments: "DIR...", minPositionals: 1, maxPositionals: nil,
            options: [.report, .log, .coverage],
            discussion: """
                Reads each DIR's partition.json and reports, checks that they are every part 1…N of one run (the same
                scenario file, seed and N; none missing or given twice; no file truncated or edited), prints what
                rental-twin run would print for the whole scenario and, with --report OUT, writes its reports and its
                page (index.html): the same bytes as one run. The page needs the scenario file the parts ran, at the
                path they named it, unchanged; without it the reports are written and a warning says why the page is
                not. With --log it prints the log too, if every part was run with --log; with --coverage FILE the
                rule coverage as LCOV, if every part was run with --coverage.

                EXAMPLE:
                  rental-twin run portfolio.json --partition 1/2 --report part-1
                  rental-twin run portfolio.json --partition 2/2 --report part-2
                  rental-twin merge part-1 part-2 --report Reports/all

                Exit status: 0 all hold, 1 some failed, 64 bad usage, 65 partitions that do not merge (codes
                partition.*), 74 reports not written.
                """),
        CommandSpec(
            name: .suite, abstract: "Run every *.json scenario below DIR, sorted by path.",
            arguments: "DIR", minPositionals: 1, maxPositionals: 1,
            options: [.junit, .report, .jobs, .shard, .interval, .seams, .strict, .coverage],
            discussion: """
                Prints one line per scenario (PASS, FAIL, INVALID) with its failures indented, and ends with
                "N passed, N failed". On a terminal a progress line shows while scenarios run; in CI logs it does not.
                With --report DIR each scenario's reports go to DIR/<file name without .json>/.

                EXAMPLES:
                  rental-twin suite Scenarios
                  rental-twin suite Scenarios --jobs 2 --junit junit.xml --report Reports
                  rental-twin suite Scenarios --shard 2/4 --junit junit-2.xml
                  rental-twin suite Scenarios --report Reports --coverage rules.info   (then genhtml rules.info -o coverage)

                --junit names the XML file itself; a directory there is a usage error (nothing is removed).

                Exit status: 0 all passed, 1 any failed, 64 bad usage, 65 any invalid, 74 a report or the JUnit
                file could not be written.
                """),
        CommandSpec(
            name: .validate, abstract: "Check scenario files without running them.",
            arguments: "FILE...", minPositionals: 1, maxPositionals: nil, options: [.strict],
            discussion: """
                Prints one message per problem: file, line, JSON path, what was expected, and a hint
                (unknown keys get "did you mean"). Nothing runs; nothing is written.

                EXAMPLE:
                  rental-twin validate Scenarios/*.json

                Exit status: 0 valid, 64 bad usage, 65 invalid.
                """),
        CommandSpec(
            name: .serve, abstract: "Serve a scenario's twin over HTTP: openHAB REST and events, OpenWeatherMap, the booking API, twin control.",
            arguments: "FILE", minPositionals: 1, maxPositionals: 1,
            options: [.port, .host, .clock, .speed, .token],
            discussion: """
                Builds the scenario's world and runs it live until interrupted: openHAB clients (REST under /rest/,
                Server-Sent Events at /rest/events), OpenWeatherMap clients (/data/2.5/weather and /forecast, also as
                an HTTP proxy for api.openweathermap.org, and /data/3.0/onecall), booking clients (/api/…, described
                by /openapi.json) and scripts (/twin/clock, /twin/advance, /twin/faults, /twin/result) talk to it on
                one port. The timeline and expectations run as in rental-twin run.
                Anonymous clients have openHAB's user role; changing Items and links needs the admin token.
                Prints the URLs and the token at start and one status line a minute (virtual time, requests, events).

                EXAMPLES:
                  rental-twin serve Scenarios/07-device-offline-mid-stay.json --clock manual --port 8080
                  rental-twin serve Scenarios/01-winter-weekend.json --speed 3600 --token secret

                Ctrl-C (SIGINT) or SIGTERM finishes open responses, stops, and prints the result so far.

                Exit status: 0 no expectation failed (some may be pending), 1 some failed, 64 bad usage,
                65 invalid scenario file, 74 the port could not be bound.
                """),
        CommandSpec(
            name: .demo, abstract: "Run the built-in demo scenario and print what happened.",
            arguments: "", minPositionals: 0, maxPositionals: 0,
            options: [.days, .printScenario],
            discussion: """
                A flat in Budapest at −2 °C with heating, a lamp on a smart plug and a lock; a guest every night
                15:00 → 10:00 with a 2-hour preheat, a setback at check-out and a night setpoint. It is an
                ordinary scenario run through the same world builder and runner as a file: --print-scenario
                writes it out, to read or to edit and run with rental-twin run.

                EXAMPLES:
                  rental-twin demo --days 3
                  rental-twin demo --print-scenario > demo.json && rental-twin run demo.json --log

                Exit status: 0, or 1 if its expectation failed.
                """),
        CommandSpec(
            name: .bench, abstract: "Benchmark: a heated flat-year, or a generated portfolio; prints events and speed.",
            arguments: "", minPositionals: 0, maxPositionals: 0,
            options: [.days, .flats, .report, .printScenario, .javaScript],
            discussion: """
                Build with -c release for meaningful figures. Without --flats: one heated flat against diurnal
                weather, through the whole runner, run five times — with nobody listening to the event bus, with one
                listener that receives every event, with five openHAB rules loaded (a cron every 5 minutes, two
                time-of-day rules, two on bus events), with ten Rules DSL rules on the flat's own Items (Group
                members filtered, mapped, reduced and sorted, lambda values, switch, a timer; with the cost per
                rule run over the first pass), one simulated day with a trivial rule (a cron every second posting one
                update; the cost per run of the path around a rule run), and with the weather watcher as `run`
                runs it (hourly: the feed's current weather, the switch Item read) — then the device path's cost
                per kernel event and the process's peak memory. With --flats: a generated portfolio scenario through the whole
                runner, with peak memory; with --report DIR as well, it runs again recording the timeseries and
                writes every report into DIR, and prints the reports' cost and the peak memory with them.
                --print-scenario writes the scenario instead of running it. --js measures JavaScript rules (Node.js):
                a flat whose one rule runs every minute of --days (default 365) days and reads two Items and posts
                one update (µs of wall time and of CPU time, the twin's and the child's, per run over the same flat
                without it), the child's start with the load of a generated 20 kB script file (ms, the median of 9),
                and a flat-year with ten JavaScript rules on the flat's own Items (the ten Rules DSL rules above, as
                openhab-js; wall and CPU time per run over the year without rules).

                EXAMPLES:
                  swift run -c release rental-twin bench
                  swift run -c release rental-twin bench --js --days 30
                  swift run -c release rental-twin bench --flats 100
                  swift run -c release rental-twin bench --flats 100 --days 365 --report /tmp/portfolio-reports

                Exit status: 0.
                """),
        CommandSpec(
            name: .`init`, abstract: "Write a scenario that loads an openHAB configuration directory as it is.",
            arguments: "", minPositionals: 0, maxPositionals: 0,
            options: [.openhab, .outFile],
            discussion: """
                Reads the directory's items/*.items and openHAB's semantic model in them: each top-level Location
                with Equipment becomes a listing; Equipment tagged Thermostat, RadiatorControl, FloorHeating, Boiler,
                Furnace, HeatPump or HVAC a heating thermostat, AirConditioner a cooling one, Lock a smart lock,
                PowerOutlet a smart plug; their Points (Setpoint/Measurement + Temperature, Switch, Power, Energy,
                OpenState, Battery) are bound to the devices' channels with itemBindings. Everything else stays as
                the directory has it (virtual Items, linked to their Things). The scenario loads the directory with
                "openhabConf", has a week of diurnal weather and no expectations; it validates and runs as written.
                What was mapped and why, and what was left virtual, goes to stderr.

                EXAMPLES:
                  rental-twin init --openhab /etc/openhab --out home.json
                  rental-twin run home.json --log
                  rental-twin init --openhab conf > scenario.json

                Exit status: 0 written (with --out: and it validates), 64 bad usage (no --openhab, not a directory),
                65 the written scenario does not validate, 74 FILE exists or not written.
                """),
        CommandSpec(
            name: .fuzz, abstract: "Mutate the example scenarios and the files they load; check that every input ends cleanly.",
            arguments: "", minPositionals: 0, maxPositionals: 0,
            options: [.seconds, .seed, .inputs, .from, .corpus, .out, .events, .target],
            discussion: """
                Input n of a seed is always the same file: the seed scenarios themselves first, then mutants of
                one target kind each, chosen by the input's own random stream among --target's kinds:
                \(FuzzTarget.all.map { "  \($0.name): \($0.summary)" }.joined(separator: "\n"))
                A side-file mutant runs its seed scenario unchanged, loading the mutated file through the real
                loader in place of the one on disk.
                --target http is a run of its own: it serves the corpus's 07-device-offline-mid-stay.json on a
                loopback port (manual clock) and sends --inputs (or --seconds' worth of) mutated HTTP requests and WebSocket frames (REST
                calls, chunked and length-framed /twin/advance bodies, a /ws handshake and frames); after each,
                GET /twin/clock must still answer 200. A finding is saved as http-<n>.bin, the bytes sent, to
                replay with `rental-twin serve … --clock manual --port 8080` and `nc 127.0.0.1 8080 < http-<n>.bin`.
                --target partitions is a run of its own too: it runs a generated 4-flat portfolio as two parts
                (`run --partition K/2 --report`) and merges --inputs mutants of their directories as `merge` does:
                bytes cut or flipped, CSV lines dropped, repeated, swapped or their fields replaced, the manifest's
                JSON mutated, a file removed, a part left out or given twice, parts reordered; half of the file
                edits forged (the manifest's sizes, hashes and check made to match again). Each must be refused
                with a partition.* code and nothing written, or merge; parts not forged must merge into exactly
                the whole run's bytes. A finding is saved as partitions-<n>/part-k, to replay with
                `rental-twin merge DIR/partitions-<n>/part-* --report OUT`.
                Each input is validated, run and reported in memory, and must end as a user may see it end:
                pass, fail or invalid (exit 0, 1 or 65) within the event budget, with no nan or inf in any
                printed line or report. Anything else is a finding: hang, run-failed, report-failed, non-finite.
                The summary gives inputs, wall time, outcomes and findings by kind with a sample of each; each
                finding's input is saved so that `rental-twin run DIR/<kind>-<n>.json` replays it (a mutated side
                file is saved beside it, and the scenario names it; its other side files by absolute path). An input
                that finishes no simulated day for 120 s ends the run (saved as stuck-<n>.json). A line on
                stderr every 10000 inputs tells how far a long campaign got (the input to continue --from).

                Seeds: CI fuzzes a fresh seed every run, the commit's: the first 15 hex digits of
                `git rev-parse HEAD` read as a number, seed=$((16#$(git rev-parse HEAD | cut -c1-15))); it prints
                "fuzz seed: N — replay: …" first, so a finding replays with one command. It also fuzzes the
                fixed seed 1, for regressions.

                EXAMPLES:
                  rental-twin fuzz --seconds 120 --seed 1
                  rental-twin fuzz --seconds 60 --target rules,ical --seed $((16#$(git rev-parse HEAD | cut -c1-15)))
                  rental-twin fuzz --target http --inputs 1000 --seed 5
                  rental-twin fuzz --target partitions --inputs 300 --seed 5
                  swift run -c release rental-twin fuzz --seconds 3600 --seed 7 --out fuzz-findings
                  rental-twin fuzz --seconds 36000 --seed 7 --inputs 500000 --from 500000

                Exit status: 0 no findings, 1 findings, 64 bad usage, 130 interrupted (Ctrl-C: the summary so far, and the --from to continue with).
                """),
    ]

    /// The command called `name`, if any.
    static func named(_ name: String) -> CommandSpec? { all.first { $0.name.rawValue == name } }

    /// The spec of `command`.
    static func of(_ command: CommandName) -> CommandSpec {
        guard let spec = all.first(where: { $0.name == command }) else { preconditionFailure("CommandSpec.all lacks \(command)") }
        return spec
    }
}
