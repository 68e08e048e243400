import Foundation
@testable import ScenarioFormat
@testable import Scenarios
import Simulation
import SmartHome
import Testing
@_spi(TwinParts) import Twin

/// `openhabConf`: a `$OPENHAB_CONF` directory loaded as openHAB loads it.
@Suite("openhabConf directories")
struct OpenHABConfTests {
    /// A conf directory (relative path → text) beside a scenario that names it.
    struct Conf {
        var files: [String: String] = [:]
        var conf = #""conf""#
        var timeline = ""
        var expect = ""

        func text() -> String {
            """
            {
              "version": 1, "name": "Conf", "seed": 1, "timeZone": "Europe/Budapest",
              "start": "2026-01-09T00:00", "end": "2026-01-10T00:00",
              "weather": { "Budapest": { "constantC": 2 } },
              "users": [ { "id": "host", "name": "Hanna Host" } ],
              "listings": [ {
                "id": "flat-1", "owner": "host", "name": "Flat", "city": "Budapest", "country": "Hungary", "capacity": 3,
                "thermal": { "uaWPerK": 80, "capacitanceKWhPerK": 2.3, "initialC": 16 },
                "devices": [ { "id": "heating", "type": "heating", "powerW": 2000, "setpointC": 21 } ]
              } ],
              "openhabConf": \(conf),
              "timeline": [\(timeline)],
              "expect": [\(expect)]
            }
            """
        }

        func load(strict: Bool = false) throws(ScenarioError) -> Scenario {
            let directory = FileManager.default.temporaryDirectory.appendingPathComponent("conf-\(UUID().uuidString)").path
            defer { try? FileManager.default.removeItem(atPath: directory) }
            for (name, text) in files {
                let path = "\(directory)/conf/\(name)"
                try? FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
                _ = FileManager.default.createFile(atPath: path, contents: Data(text.utf8))
            }
            let path = "\(directory)/scenario.json"
            _ = FileManager.default.createFile(atPath: path, contents: Data(text().utf8))
            return try ScenarioDecoder.load(path: path, strict: strict)
        }
    }

    static let home: [String: String] = [
        "items/home.items": """
            Switch Pump "Pump" { channel="mqtt:topic:broker:pump:power" }
            Number:Temperature Tank "Tank [%.1f °C]" { channel="mqtt:topic:broker:pump:tank" }
            String Broker "Broker"
            String Report "Report"
            """,
        "things/mqtt.things": """
            Bridge mqtt:broker:broker [ host="10.0.0.2" ] {
                Thing topic pump "Pump" {
                    Channels:
                        Type switch : power [ commandTopic="pump/set" ]
                }
            }
            """,
        "rules/pump.rules": """
            rule "broker"
            when
                Thing "mqtt:broker:broker" changed
            then
                Broker.postUpdate(newStatus.toString)
            end
            rule "report"
            when
                Time cron "0 0 12 * * ?"
            then
                Report.postUpdate(Tank.maximumSince(now.minusHours(6), "rrd4j").state.toString + " / " + Tank.maximumSince(now.minusHours(6), "mapdb").state.toString)
            end
            """,
        "rules/old.rules": """
            rule "joda"
            when
                Item Pump changed
            then
                val x = now.plusHours(1).toDateTime
            end
            """,
        "persistence/rrd4j.persist": "Items { Tank : strategy = everyChange }\n",
        "persistence/mapdb.persist": "Items { * : strategy = everyUpdate, restoreOnStartup }\n",
        "rules/pump.rules.bak": "garbage",
        "things/.hidden.things": "garbage",
        "automation/jsr223/python/personal/a.py": "print(1)\n",
        "automation/ruby/personal/b.rb": "puts 1\n",
        "sitemaps/home.sitemap": "sitemap home {}\n",
    ]

    @Test func aConfDirectoryLoadsAsOpenHABLoadsItAndRuns() async throws {
        var c = Conf()
        c.files = Self.home
        c.timeline = """
            { "at": "2026-01-09T08:00", "update": { "item": "Tank", "state": "40" } },
            { "at": "2026-01-09T09:00", "update": { "item": "Tank", "state": "38" } },
            { "at": "2026-01-09T10:00", "thing": { "thing": "mqtt:broker:broker", "status": "OFFLINE" } },
            { "at": "2026-01-09T10:00", "command": { "item": "Pump", "value": "ON" } }
            """
        c.expect = """
            { "at": "2026-01-09T10:00", "item": "Broker", "state": "OFFLINE" },
            { "at": "2026-01-09T10:00", "item": "Pump", "state": "NULL" },
            { "at": "2026-01-09T12:00", "item": "Report", "state": "40 °C / 38 °C" }
            """
        let scenario = try c.load()
        #expect(scenario.things.map(\.uid) == ["mqtt:broker:broker", "mqtt:topic:broker:pump"])
        #expect(scenario.persistenceServices.map(\.service) == ["mapdb", "rrd4j"])
        #expect(scenario.rules.map(\.name).sorted() == ["broker", "report"])
        // The Joda-Time file openHAB 3+ refuses: skipped with a located warning, not an error.
        #expect(scenario.warnings.count == 1 && scenario.warnings[0].contains("old.rules:5") && scenario.warnings[0].contains("skipped"),
                "\(scenario.warnings)")
        // Names openHAB's folder watcher does not take, and folders the twin does not read, in the load log.
        #expect(scenario.loadLog.contains { $0.contains("rules/pump.rules.bak") })
        #expect(scenario.loadLog.contains { $0.contains("things/.hidden.things") })
        #expect(scenario.loadLog.contains { $0.contains("sitemaps/") })
        // Scripts in languages the twin does not run: one notice naming both.
        let foreign = scenario.notices.filter { $0.contains("are not run") }
        #expect(foreign.count == 1 && foreign[0].contains("a.py") && foreign[0].contains("b.rb"))
        let result = try await ScenarioRunner.run(scenario)
        // A command to an Item whose Thing is OFFLINE is not auto-updated (openHAB's AutoUpdateManager: REVERT).
        #expect(result.failures.isEmpty, "\(result.failures)")

        let world = try await World.build(scenario)
        let things = await world.runtime.things.all().map { "\($0.uid) \($0.statusInfo.status.rawValue)" }
        #expect(things.contains("mqtt:topic:broker:pump ONLINE") && things.contains("mqtt:broker:broker ONLINE"))
        let pump = try #require(await world.runtime.things.thing(try ThingUID("mqtt:topic:broker:pump")))
        #expect(pump.channels.map(\.id) == ["power", "tank"])  // declared, then the one an Item links to
        let linked = await world.runtime.links.channels(linkedTo: try ItemName("Pump")).map(\.rawValue)
        #expect(linked == ["mqtt:topic:broker:pump:power"])
        await world.close()
    }

    @Test func strictMakesEveryWarningAnErrorAndExcludeLeavesFilesOut() throws {
        var c = Conf()
        c.files = Self.home
        #expect(throws: ScenarioError.self) { _ = try c.load(strict: true) }
        do {
            _ = try c.load(strict: true)
        } catch {
            #expect(error.issues.contains { $0.description.contains("old.rules:5") })
        }
        c.conf = #"{ "dir": "conf", "exclude": ["rules/old.rules", "automation/**"] }"#
        let scenario = try c.load(strict: true)
        #expect(scenario.warnings.isEmpty && !scenario.notices.contains { $0.contains("are not run") })
        #expect(scenario.loadLog.contains { $0.contains("left out rules/old.rules") })
    }

    @Test func badThingsAndItemsFilesAreSkippedWithEveryProblemLocated() throws {
        var c = Conf()
        c.files = ["things/bad.things": "astro:sun \"Sun\"\nThing topic x\nmqtt:broker:ok [ port=fast ]\n",
                   "things/good.things": "astro:sun:home\n",
                   "items/bad.items": "Swtich Lamp\n", "items/good.items": "Switch Fan\n"]
        let scenario = try c.load()
        #expect(scenario.things.map(\.uid) == ["astro:sun:home"])
        #expect(scenario.items.map(\.name) == ["Fan"])
        #expect(scenario.warnings.first?.contains("bad.items:1: column 1: items.unknownType") == true, "\(scenario.warnings)")
        let lines = scenario.warnings.dropFirst().map { $0.replacingOccurrences(of: #"^.*/conf/things/"#, with: "", options: .regularExpression) }
        #expect(lines.count == 3)
        #expect(lines.count == 3 && lines[0].hasPrefix("bad.things:1: column 1: things.invalidUID"))
        #expect(lines.count == 3 && lines[1].hasPrefix("bad.things:2: column 7: things.invalidUID"))
        #expect(lines.count == 3 && lines[2].hasPrefix("bad.things:3: column 23: things.invalidValue"))
    }

    /// A query names a service: that file's; none: the default (rrd4j here); a service the scenario does not have
    /// ends the run as rules.dslNotPersisted, naming the services it has.
    @Test func aQueryReadsTheServiceOpenHABWouldPick() async throws {
        var c = Conf()
        c.files = Self.home
        c.files["rules/old.rules"] = nil
        c.files["rules/pump.rules"] = """
            rule "report"
            when
                Time cron "0 0 12 * * ?"
            then
                Report.postUpdate(Tank.countSince(now.minusHours(6)).toString)
            end
            rule "influx"
            when
                Time cron "0 0 13 * * ?"
            then
                Report.postUpdate(Tank.countSince(now.minusHours(6), "influxdb").toString)
            end
            """
        c.timeline = """
            { "at": "2026-01-09T08:00", "update": { "item": "Tank", "state": "40" } },
            { "at": "2026-01-09T09:00", "update": { "item": "Tank", "state": "38" } },
            { "at": "2026-01-09T09:30", "update": { "item": "Tank", "state": "38" } }
            """
        // rrd4j (everyChange): two states; mapdb alone would hold one.
        c.expect = #"{ "at": "2026-01-09T12:00", "item": "Report", "state": "2" }"#
        let result = try await ScenarioRunner.run(try c.load())
        #expect(result.failures.isEmpty, "\(result.failures)")
        let refused = result.log.joined(separator: "\n")
        #expect(refused.contains("reads the persistence service influxdb, which the scenario does not have (rules.dslNotPersisted)"), "\(refused)")
        #expect(refused.contains("its services are mapdb, rrd4j"), "\(refused)")
    }

    /// What openHAB 3+ refuses in a rules file beyond syntax — a function no core or add-on defines, an Item no
    /// `.items` file declares named in a body — skips that file with a located warning; a trigger on such an Item
    /// loads (it never fires) with a notice; a cron openHAB's scheduler cannot read leaves that rule out
    /// (UNINITIALIZED in openHAB) and the file's other rules load.
    @Test func filesOpenHABRefusesAreSkippedAndUnreadableCronRulesLeftOut() async throws {
        var c = Conf()
        c.files = [
            "items/home.items": "Switch Pump\nString Report\n",
            "rules/remote.rules": """
                rule "movie"
                when
                    Item Pump changed to ON
                then
                    remoteStartActivity("Movie")
                end
                """,
            "rules/ui.rules": """
                rule "ui made"
                when
                    Item Pump changed
                then
                    Hallway_Dimmer.sendCommand(30)
                end
                """,
            "rules/watch.rules": """
                rule "watch"
                when
                    Item Garage_Door changed or Item Pump changed to ON
                then
                    Report.postUpdate("pump on")
                end
                rule "every ten"
                when
                    Time cron "0 /10 * * * ?"
                then
                    Report.postUpdate("ten")
                end
                """,
        ]
        c.timeline = #"{ "at": "2026-01-09T08:00", "command": { "item": "Pump", "value": "ON" } }"#
        c.expect = #"{ "at": "2026-01-09T08:01", "item": "Report", "state": "pump on" }, { "at": "2026-01-09T09:00", "item": "Report", "state": "pump on" }"#
        let scenario = try c.load()
        #expect(scenario.rules.map(\.name) == ["watch"], "\(scenario.rules.map(\.name))")
        let warnings = scenario.warnings.map { $0.replacingOccurrences(of: #"^.*/conf/rules/"#, with: "", options: .regularExpression) }
        #expect(warnings.count == 3, "\(warnings)")
        #expect(warnings.contains { $0.hasPrefix("remote.rules:5: column 5: remoteStartActivity(…) is not a function") && $0.contains("openHAB refuses this file too; it is skipped") }, "\(warnings)")
        #expect(warnings.contains { $0.hasPrefix("ui.rules:1: rule \"ui made\" names the Item \"Hallway_Dimmer\", which no .items file declares (rules.unknownItem)") && $0.contains("is undefined") }, "\(warnings)")
        #expect(warnings.contains { $0.hasPrefix("watch.rules:") && $0.contains("\"0 /10 * * * ?\"") && $0.contains("UNINITIALIZED") }, "\(warnings)")
        #expect(scenario.notices.contains { $0.contains("names the Item \"Garage_Door\" in a trigger, which no .items file declares: the trigger never fires") }, "\(scenario.notices)")
        let result = try await ScenarioRunner.run(scenario)
        #expect(result.failures.isEmpty, "\(result.failures)")
        // --strict: each of them is an error.
        #expect(throws: ScenarioError.self) { _ = try c.load(strict: true) }
    }

    /// A conf directory with no `.persist` file (and no "persistence"): openHAB's default rrd4j service persists
    /// every Item, every change and every minute, and the twin says so once.
    @Test func noPersistFileMeansOpenHABsDefaultRRD4J() async throws {
        var c = Conf()
        c.files = [
            "items/home.items": "Number Tank\nString Report\n",
            "rules/report.rules": """
                rule "report"
                when
                    Time cron "0 0 10 * * ?"
                then
                    Report.postUpdate(Tank.maximumSince(now.minusHours(3)).state.toString + " " + Tank.countSince(now.minusMinutes(30)))
                end
                """,
        ]
        c.timeline = #"{ "at": "2026-01-09T08:00", "update": { "item": "Tank", "state": "40" } }, { "at": "2026-01-09T09:00", "update": { "item": "Tank", "state": "38" } }"#
        let scenario = try c.load()
        #expect(scenario.persistenceServices.map(\.service) == ["rrd4j"])
        #expect(scenario.notices.filter { $0.contains("openHAB's default service rrd4j persists every Item") }.count == 1, "\(scenario.notices)")
        let result = try await ScenarioRunner.run(scenario)
        #expect(result.failures.isEmpty, "\(result.failures)")
        // The state 40 (08:00) is the maximum; every minute adds a point: 09:30 … 10:00, 31 (the minute's point is
        // stored before the 10:00 rule runs).
        #expect(result.log.contains { $0.contains("Report := 40 31") }, "\(result.log.filter { $0.contains("Report") })")
    }

    /// A scale entry openHAB ignores with a warning (`[-40,20]=…`, openHAB 1's comma) is a warning of a conf
    /// directory's transform file, and the file's other entries load; automation/js scripts that register no rule
    /// run once as they load (a notice), as openHAB runs them.
    @Test func entriesAndScriptsOpenHABLoadWithAWarningLoad() throws {
        var c = Conf()
        c.files = [
            "items/home.items": "Number Humidex\n",
            "transform/comfort.scale": "[-40,20]=cool\n[20..30]=fine\n",
            "automation/js/setup.js": "console.log('set up');\n",
        ]
        let scenario = try c.load()
        #expect(scenario.transforms.map(\.name) == ["comfort.scale"])
        #expect(scenario.warnings.count == 1 && scenario.warnings[0].contains("comfort.scale:1: transform.badEntry"), "\(scenario.warnings)")
        #expect(scenario.notices.contains { $0.contains("automation/js register no rule: they ran once as they loaded") }, "\(scenario.notices)")
        #expect(throws: ScenarioError.self) { _ = try c.load(strict: true) }
    }

    /// Files openHAB's loaders fail on too are skipped with located warnings and the rest runs: a JavaScript file
    /// with a syntax error or a `require` of a package the directory lacks (the add-on logs it and loads the
    /// others), a `.script` openHAB refuses, a `.script` the twin cannot run (nothing calls it), a `.rules` file
    /// with openHAB 2's StringUtils extension; a `System shuts down` trigger is dropped with openHAB's warning.
    /// `--strict` makes each an error.
    @Test func filesOpenHABFailsOnAreSkippedWithLocatedWarnings() async throws {
        var c = Conf()
        c.files = [
            "items/home.items": "Switch Pump\nNumber Level\nString Mode\n",
            "automation/js/broken.js": "rules.JSRule({\n  name: 'broken',\n  execute: () => { if (x) }\n});\n",
            "automation/js/tools.js": "const tools = require('my-home-tools');\nrules.JSRule({ name: 'tools', execute: () => tools.go() });\n",
            "automation/js/my-home-tools/package.json": "{ \"name\": \"my-home-tools\", \"main\": \"index.js\" }\n",
            "automation/js/level.js": """
                rules.JSRule({ name: 'level', triggers: [triggers.ItemStateChangeTrigger('Pump')], execute: () => items.Level.postUpdate(7) });
                """,
            "scripts/half.script": "Mode.postUpdate(\n",
            "scripts/fetch.script": "val url = new URL(\"http://10.0.0.9/status\")\nMode.postUpdate(url.openConnection.getInputStream.toString)\n",
            "rules/pump.rules": """
                rule "pump"
                when
                    System shuts down or
                    Item Pump changed
                then
                    Mode.postUpdate("changed")
                end
                """,
            "rules/blinds.rules": """
                rule "blinds"
                when
                    Item Pump changed
                then
                    if (triggeringItemName.containsIgnoreCase("pump")) Mode.postUpdate("old")
                end
                """,
        ]
        c.timeline = #"{ "at": "2026-01-09T08:00", "command": { "item": "Pump", "value": "ON" } }"#
        c.expect = """
            { "at": "2026-01-09T08:00", "item": "Level", "state": "7" },
            { "at": "2026-01-09T08:00", "item": "Mode", "state": "changed" }
            """
        let scenario = try c.load()
        let warnings = scenario.warnings
        func warned(_ file: String, _ words: String) -> Bool { warnings.contains { $0.contains(file) && $0.contains(words) } }
        #expect(warned("broken.js:3", "rules.jsSyntax") && warned("broken.js", "openHAB fails to load this file too; it is skipped"), "\(warnings)")
        #expect(warned("tools.js:1", "rules.jsRequire") && warned("tools.js", "it is skipped")
                && warned("tools.js", "automation/js/my-home-tools holds the package's sources, not installed: `npm install` in automation/js"), "\(warnings)")
        #expect(warned("half.script", "openHAB refuses this script too; it is skipped"), "\(warnings)")
        #expect(warned("fetch.script:1", "the twin cannot run this script, so it leaves it out"), "\(warnings)")
        #expect(warned("pump.rules:3", "rules.dslDroppedTrigger"), "\(warnings)")
        #expect(warned("blinds.rules:5", "StringUtils") && warned("blinds.rules", "openHAB refuses this file too"), "\(warnings)")
        #expect(scenario.rules.map(\.name).sorted() == ["level", "pump"])
        #expect(scenario.ruleFiles.contains { $0.hasSuffix("level.js") } && !scenario.ruleFiles.contains { $0.hasSuffix("broken.js") })
        let result = try await ScenarioRunner.run(scenario)
        #expect(result.failures.isEmpty, "\(result.failures)")
        do {
            _ = try c.load(strict: true)
            Issue.record("--strict loaded")
        } catch {
            for file in ["broken.js", "tools.js", "half.script", "fetch.script", "pump.rules", "blinds.rules"] {
                #expect(error.issues.contains { $0.description.contains(file) }, "\(file): \(error.issues)")
            }
        }
    }

    /// A JavaScript rule's persistence query reads the default service of the conf directory's `.persist` files,
    /// as a Rules DSL rule's does (here the only service, jdbc, persisting the Group's members).
    @Test func javaScriptPersistenceReadsTheConfDirectorysService() async throws {
        var c = Conf()
        c.files = [
            "items/home.items": "Group gTemp\nNumber Tank (gTemp)\nString Report\n",
            "persistence/jdbc.persist": "Items { gTemp* : strategy = everyChange }\n",
            "automation/js/report.js": """
                rules.JSRule({ name: 'report', triggers: [triggers.GenericCronTrigger('0 0 12 * * ?')],
                  execute: () => items.Report.postUpdate(`${items.Tank.persistence.maximumSince(time.ZonedDateTime.now().minusHours(6)).numericState}`) });
                """,
        ]
        c.timeline = """
            { "at": "2026-01-09T08:00", "update": { "item": "Tank", "state": "40" } },
            { "at": "2026-01-09T09:00", "update": { "item": "Tank", "state": "38" } }
            """
        c.expect = #"{ "at": "2026-01-09T12:00", "item": "Report", "state": "40" }"#
        let result = try await ScenarioRunner.run(try c.load())
        #expect(result.failures.isEmpty, "\(result.failures) \(result.log.filter { $0.contains("error") })")
    }

    /// A core action openHAB 3+ runs and the twin does not yet (`checkVitality`, Semantics' `getLocation`) is no
    /// file openHAB refuses: it stays an error, the file is not skipped.
    @Test func aCoreActionTheTwinDoesNotRunStaysAnError() throws {
        for call in ["checkVitality(\"10.0.0.9\", 80, 500)", "getLocation(Pump)"] {
            var c = Conf()
            c.files = ["items/home.items": "Switch Pump\n",
                       "rules/ping.rules": "rule \"ping\"\nwhen\n    Item Pump changed\nthen\n    val x = \(call)\nend\n"]
            do {
                _ = try c.load()
                Issue.record("\(call): loaded")
            } catch {
                #expect(error.issues.contains { $0.description.contains("ping.rules:5") && $0.description.contains("which the twin does not run yet") }, "\(error.issues)")
            }
        }
    }
}
