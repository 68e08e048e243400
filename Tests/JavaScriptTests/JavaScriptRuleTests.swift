import Foundation
import JavaScript
import ScenarioFormat
import Scenarios
import Testing

extension JavaScriptSuite {
    /// JavaScript rules as users run them: scenario files with `.js` rules, run by a Node.js child on the
    /// virtual clock. Serialized: some tests name a different `node` through the environment, and the
    /// left-over check counts this process's node children.
    @Suite struct JavaScriptRuleTests {
        static let items = """
        [ { "name": "Counter", "type": "Number", "state": "0" }, { "name": "Mode", "type": "String", "state": "-" },
          { "name": "Temp", "type": "Number:Temperature", "state": "20.5 °C" }, { "name": "Lamp", "type": "Switch", "state": "OFF" } ]
        """

        @Test func aCronRuleAndItsTimerRunOnTheVirtualClock() async throws {
            let s = JSScenario()
            s.items = Self.items
            s.files["automation/js/clock.js"] = """
            const { rules, triggers, items, time } = require('openhab');
            rules.JSRule({
              name: 'Morning',
              triggers: [triggers.GenericCronTrigger('0 30 6 * * ?')],
              execute: (event) => {
                items.Counter.postUpdate(items.Counter.numericState + 1);
                items.Mode.postUpdate(`${event.triggerType} ${time.ZonedDateTime.now().toLocalTime()} ${items.Temp.quantityState.toUnit('°F')}`);
                setTimeout(() => items.Lamp.sendCommand('ON'), 90 * 60 * 1000);
              },
            });
            """
            s.expect = """
            { "at": "2026-01-09T06:00", "item": "Counter", "state": "0" },
            { "at": "2026-01-09T06:31", "item": "Counter", "state": "1" },
            { "at": "2026-01-09T06:31", "item": "Mode", "state": "GenericCronTrigger 06:30 68.9 °F" },
            { "at": "2026-01-09T07:59", "item": "Lamp", "state": "OFF" },
            { "at": "2026-01-09T08:00", "item": "Lamp", "state": "ON" },
            { "rule": "Morning", "runs": 1 }
            """
            let result = try await s.run()
            #expect(result.passed, "\(result.failures)")
            #expect(result.log.contains { $0.hasPrefix("2026-01-09T08:00") && $0.contains("setTimeout #1 of rule \"Morning\"") && $0.contains("Lamp ← ON") },
                    "\(result.log)")
        }

        /// `triggers.GenericEventTrigger` on Item events runs as the Item trigger that fires on the same events, and
        /// the event is what openhab-js builds from the event alone (class, topic, parsed payload; no oldState);
        /// `Java.type` gives openHAB's HSBType and PercentType as ColorUtil computes them, and the script actions'
        /// classes as the `actions.*` openhab-js hands out (its actions.js takes each with `Java.type`).
        @Test func genericItemEventTriggersAndJavaColorTypes() async throws {
            let s = JSScenario()
            s.items = Self.items
            s.files["automation/js/events.js"] = """
            const { rules, triggers, items, actions } = require('openhab');
            const HSBType = Java.type('org.openhab.core.library.types.HSBType');
            const PercentType = Java.type('org.openhab.core.library.types.PercentType');
            rules.JSRule({
              name: 'Every change',
              triggers: [triggers.GenericEventTrigger('openhab/items/La*/*', '', 'ItemStateChangedEvent', 'changes')],
              execute: (event) => {
                const c = HSBType.fromRGB(255, 128, 0);
                const dim = new HSBType(c.getHue(), c.getSaturation(), new PercentType(50));
                const Ephemeris = Java.type('org.openhab.core.model.script.actions.Ephemeris');
                items.Mode.postUpdate(`${event.itemName} ${event.eventName} ${event.eventTopic} ${event.payload.oldValue}>${event.payload.value} ${event.oldState} ${event.triggerType} ${event.module} ${dim} ${Ephemeris === actions.Ephemeris} ${Ephemeris.isWeekend()}`);
              },
            });
            """
            s.timeline = #"{ "at": "2026-01-09T08:00", "command": { "item": "Lamp", "value": "ON" } }"#
            s.expect = """
            { "at": "2026-01-09T08:00", "item": "Mode", "state": "Lamp ItemStateChangedEvent openhab/items/Lamp/statechanged OFF>ON undefined ItemStateChangeTrigger changes 30.117,100,50 true false" },
            { "rule": "Every change", "runs": 1 }
            """
            let result = try await s.run()
            #expect(result.passed, "\(result.failures)")
        }

        /// A GenericEventTrigger the twin does not run (a Thing topic, several types) is refused, located, with the reason.
        @Test func genericEventTriggersOutsideItemEventsAreRefused() throws {
            let s = JSScenario()
            s.items = Self.items
            s.files["automation/js/events.js"] = """
            rules.JSRule({ name: 'Things', triggers: [triggers.GenericEventTrigger('openhab/things/**', '', 'ThingStatusInfoChangedEvent')], execute: () => {} });
            rules.JSRule({ name: 'Both', triggers: [triggers.GenericEventTrigger('openhab/items/*/*', '', 'ItemCommandEvent,ItemStateChangedEvent')], execute: () => {} });
            """
            do {
                _ = try ScenarioDecoder.load(path: s.write())
                Issue.record("loaded")
            } catch {
                let said = error.issues.map(\.description)
                #expect(said.contains { $0.contains("events.js:1") && $0.contains("Item events (openhab/items/…) only") }, "\(said)")
                #expect(said.contains { $0.contains("events.js:2") && $0.contains("several event types") }, "\(said)")
            }
        }

        @Test func theSameScenarioGivesTheSameOutputAndTheSeedMatters() async throws {
            let script = """
            const { rules, triggers, items } = require('openhab');
            rules.JSRule({
              name: 'Dice',
              triggers: [triggers.GenericCronTrigger('0 0 * * * ?')],
              execute: () => items.Mode.postUpdate(`${Math.floor(Math.random() * 1e9)} ${Date.now()} ${new Date().toISOString()}`),
            });
            """
            func log(seed: Int) async throws -> [String] {
                let s = JSScenario()
                s.seed = seed
                s.items = Self.items
                s.files["automation/js/dice.js"] = script
                return try await s.run().log
            }
            let first = try await log(seed: 7), second = try await log(seed: 7), other = try await log(seed: 8)
            #expect(first == second)
            #expect(first != other)
            #expect(first.contains { $0.contains("1767934800000 2026-01-09T05:00:00.000Z") }, "\(first)")
        }

        @Test func noNodeProcessIsLeftAfterARun() async throws {
            let s = JSScenario()
            s.items = Self.items
            s.files["automation/js/a.js"] = "rules.JSRule({ name: 'A', triggers: [triggers.ItemCommandTrigger('Lamp')], execute: () => {} });"
            s.timeline = "{ \"at\": \"2026-01-09T10:00\", \"command\": { \"item\": \"Lamp\", \"value\": \"ON\" } }"
            let result = try await s.run()
            #expect(result.log.contains { $0.contains("rule \"A\"") })
            #expect(childNodeProcesses(of: s.directory).isEmpty, "left: \(childNodeProcesses(of: s.directory).map(processDescription))")
        }

        /// Validation's child is kept for the scenario's first world (Node starts once); a second run of the same
        /// scenario starts a child of its own and runs exactly as the first; a scenario never run stops its kept
        /// child when it is released; a kept child that died is replaced.
        @Test func theChildThatValidatedAScenarioRunsItsFirstWorld() async throws {
            let s = JSScenario()
            s.items = Self.items
            s.files["automation/js/a.js"] = """
            const { rules, triggers, items } = require('openhab');
            console.info(`loaded with ${Math.random()}`);
            rules.JSRule({ name: 'A', triggers: [triggers.ItemCommandTrigger('Lamp')], execute: () => items.Counter.postUpdate(items.Counter.numericState + Math.random()) });
            """
            s.timeline = "{ \"at\": \"2026-01-09T10:00\", \"command\": { \"item\": \"Lamp\", \"value\": \"ON\" } }"
            var scenario: Scenario? = try s.load()
            #expect(childNodeProcesses(of: s.directory).count == 1, "\(childNodeProcesses(of: s.directory).map(processDescription))")
            let first = try await ScenarioRunner.run(try #require(scenario))
            // The kept child was the first world's, and stopped with it (the scenario is still alive).
            #expect(childNodeProcesses(of: s.directory).isEmpty, "\(childNodeProcesses(of: s.directory).map(processDescription))")
            let second = try await ScenarioRunner.run(try #require(scenario))
            #expect(first.log.contains { $0.contains("loaded with") } && first.log.contains { $0.contains("rule \"A\"") }, "\(first.log)")
            #expect(first.log == second.log)
            scenario = nil
            #expect(childNodeProcesses(of: s.directory).isEmpty)

            do {
                let unrun = try s.load()
                #expect(childNodeProcesses(of: s.directory).count == 1)
                _ = unrun
            }
            #expect(childNodeProcesses(of: s.directory).isEmpty, "\(childNodeProcesses(of: s.directory).map(processDescription))")

            // A kept child killed before the run is replaced by a new one; the run is the same.
            let again = try s.load()
            let kept = childNodeProcesses(of: s.directory)
            #expect(kept.count == 1)
            for pid in kept { kill(pid, SIGKILL) }
            let third = try await ScenarioRunner.run(again)
            #expect(third.log == first.log)
            #expect(childNodeProcesses(of: s.directory).isEmpty, "\(childNodeProcesses(of: s.directory).map(processDescription))")
        }

        @Test func aRuleThatLoopsForeverEndsTheRunAsALocatedBudgetError() async throws {
            let s = JSScenario()
            s.items = Self.items
            s.files["automation/js/spin.js"] = "// spins\nrules.JSRule({\n  name: 'Spin',\n  triggers: [triggers.TimeOfDayTrigger('10:00')],\n  execute: () => { while (true) {} },\n});\n"
            let clock = ContinuousClock()
            let started = clock.now
            do {
                _ = try await s.run()
                Issue.record("a rule that never ends did not end the run")
            } catch let error as ScenarioError {
                #expect(error.message.contains("rules.jsBudget"), "\(error.message)")
                #expect(error.message.contains("automation/js/spin.js:2") && error.message.contains("rule \"Spin\""), "\(error.message)")
            }
            #expect(clock.now - started < .seconds(30))
            #expect(childNodeProcesses(of: s.directory).isEmpty, "\(childNodeProcesses(of: s.directory).map(processDescription))")
        }

        /// `setInterval(f, 0)` (Node's 1 ms) would be a round trip to the child every simulated millisecond: after
        /// 10,000 repeats less than 100 ms apart the run ends, naming the interval; one of 100 ms runs on.
        @Test func anIntervalOfAMillisecondEndsTheRunAndOneOfATenthOfASecondRunsOn() async throws {
            let s = JSScenario()
            s.items = Self.items
            s.end = "2026-01-09T10:30"
            s.files["automation/js/tick.js"] = "rules.JSRule({\n  name: 'Ticker',\n  triggers: [triggers.TimeOfDayTrigger('10:00')],\n  execute: () => { setInterval(() => {}, 0); },\n});\n"
            do {
                _ = try await s.run()
                Issue.record("a 1 ms interval did not end the run")
            } catch let error as ScenarioError {
                #expect(error.message.contains("rules.jsBudget") && error.message.contains("setInterval #1 of rule \"Ticker\"")
                        && error.message.contains("10000 times in a row"), "\(error.message)")
                // The 10,001st repeat, 10,001 ms after 10:00.
                #expect(error.message.contains("2026-01-09T10:00:10"), "\(error.message)")
            }
            let slow = JSScenario()
            slow.items = Self.items
            slow.end = "2026-01-09T10:20"
            slow.files["automation/js/tick.js"] = "let n = 0;\nrules.JSRule({\n  name: 'Ticker',\n  triggers: [triggers.TimeOfDayTrigger('10:00')],\n  execute: () => { setInterval(() => { n += 1; if (n % 6000 === 0) items.Counter.postUpdate(n); }, 100); },\n});\n"
            slow.expect = #"{ "at": "2026-01-09T10:19:59", "item": "Counter", "state": "6000" }, { "at": "2026-01-09T10:20", "item": "Counter", "state": "12000" }"#
            let result = try await slow.run()
            #expect(result.passed, "\(result.failures)")
        }

        @Test func anExceptionIsLoggedAsOpenHABLogsItAndTheRunGoesOn() async throws {
            let s = JSScenario()
            s.items = Self.items
            s.files["automation/js/throws.js"] = "rules.JSRule({\n  name: 'Thrower',\n  triggers: [triggers.TimeOfDayTrigger('09:00')],\n  execute: () => {\n    items.Counter.postUpdate(1);\n    null.x;\n  },\n});\nrules.JSRule({ name: 'After', triggers: [triggers.TimeOfDayTrigger('10:00')], execute: () => items.Mode.postUpdate('still running') });\n"
            s.expect = "{ \"item\": \"Counter\", \"state\": \"1\" }, { \"item\": \"Mode\", \"state\": \"still running\" }"
            let result = try await s.run()
            #expect(result.failures.map(\.description) == [])
            #expect(result.log.contains { $0.contains("rule \"Thrower\"") && $0.contains("error: rules.jsRuntime") && $0.contains("TypeError")
                && $0.contains("automation/js/throws.js:6") }, "\(result.log)")
        }

        @Test func aPersistenceQueryOfAnItemNotPersistedIsLocated() async throws {
            let s = JSScenario()
            s.items = Self.items
            s.files["automation/js/p.js"] = "rules.JSRule({\n  name: 'Mean',\n  triggers: [triggers.TimeOfDayTrigger('10:00')],\n  execute: () => {\n    items.Counter.postUpdate(items.Temp.persistence.averageSince(time.toZDT('PT-1H')).numericState);\n  },\n});\n"
            let result = try await s.run()
            #expect(result.log.contains { $0.contains("rules.jsNotPersisted") && $0.contains("does not record Temp") && $0.contains("automation/js/p.js:5") },
                    "\(result.log)")
        }

        @Test func previousStateAndTimestampsComeFromTheTwinsItem() async throws {
            let s = JSScenario()
            s.items = Self.items
            s.files["automation/js/prev.js"] = """
            rules.JSRule({ name: 'Prev', triggers: [triggers.ItemStateChangeTrigger('Lamp')], execute: (event) => {
              const lamp = items.Lamp;
              items.Mode.postUpdate(`${event.oldState}->${event.newState} previous ${lamp.previousState} changed ${lamp.lastStateChangeTimestamp.toLocalTime()} meta ${JSON.stringify(lamp.getMetadata())}`);
            } });
            """
            s.timeline = "{ \"at\": \"2026-01-09T10:15\", \"update\": { \"item\": \"Lamp\", \"state\": \"ON\" } }"
            s.expect = "{ \"item\": \"Mode\", \"state\": \"OFF->ON previous OFF changed 10:15 meta {}\" }"
            let result = try await s.run()
            #expect(result.failures.map(\.description) == [])
        }

        @Test func aSyntaxErrorIsLocatedAtValidation() {
            let s = JSScenario()
            s.files["automation/js/broken.js"] = "const a = 1;\nrules.JSRule({\n  name: 'x',\n  execute: () => { if (a > ) {} },\n});\n"
            let problems = s.problems()
            #expect(problems.contains { $0.contains("automation/js/broken.js:4") && $0.contains("rules.jsSyntax") && $0.contains("column") }, "\(problems)")
        }

        @Test func unsupportedMembersAreLocatedErrorsNeverSilent() async throws {
            let atLoad = JSScenario()
            atLoad.files["automation/js/load.js"] = "\nconst File = Java.type('java.io.File');\nrules.JSRule({ name: 'x', execute: () => {} });\n"
            let problems = atLoad.problems()
            #expect(problems.contains { $0.contains("automation/js/load.js:2") && $0.contains("rules.jsUnsupported") && $0.contains("java.io.File") }, "\(problems)")

            // An openHAB class the twin lacks is taken, as GraalJS takes it; its use is refused where it is used.
            let imported = JSScenario()
            imported.items = Self.items
            imported.files["automation/js/pe.js"] = """
            const PersistenceExtensions = Java.type('org.openhab.core.persistence.extensions.PersistenceExtensions');
            rules.JSRule({ name: 'Imports', triggers: [triggers.TimeOfDayTrigger('09:00')], execute: () => { items.Counter.postUpdate(1); } });
            rules.JSRule({ name: 'Uses', triggers: [triggers.TimeOfDayTrigger('10:00')], execute: () => {
              items.Counter.postUpdate(PersistenceExtensions.averageSince(null, time.toZDT('PT-1H')));
            } });
            """
            imported.expect = #"{ "item": "Counter", "state": "1" }, { "rule": "Imports", "runs": 1 }"#
            let importedResult = try await imported.run()
            #expect(importedResult.passed, "\(importedResult.failures)")
            #expect(importedResult.log.contains { $0.contains("rules.jsUnsupported") && $0.contains("PersistenceExtensions.averageSince") && $0.contains("automation/js/pe.js:4") },
                    "\(importedResult.log)")

            let atRun = JSScenario()
            atRun.items = Self.items
            atRun.files["automation/js/run.js"] = "rules.JSRule({\n  name: 'Persisted',\n  triggers: [triggers.TimeOfDayTrigger('10:00')],\n  execute: () => {\n    items.Temp.addTags('x');\n  },\n});\n"
            let result = try await atRun.run()
            #expect(result.log.contains { $0.contains("rules.jsUnsupported") && $0.contains("Item.addTags") && $0.contains("automation/js/run.js:5") },
                    "\(result.log)")
        }

        @Test func requireStaysInsideTheScenarioFolder() {
            let s = JSScenario()
            s.files["automation/js/escape.js"] = "const x = require('../../../../../../etc/hostname');\nrules.JSRule({ name: 'x', execute: () => {} });\n"
            let problems = s.problems()
            #expect(problems.contains { $0.contains("rules.jsRequire") }, "\(problems)")

            let missing = JSScenario()
            missing.files["automation/js/missing.js"] = "const lib = require('no-such-lib');\nrules.JSRule({ name: 'x', execute: () => {} });\n"
            #expect(missing.problems().contains { $0.contains("rules.jsRequire") && $0.contains("no-such-lib") })
        }

        @Test func aTriggerOnAnUnknownItemIsRefusedAtValidation() {
            let s = JSScenario()
            s.files["automation/js/t.js"] = "rules.JSRule({ name: 'x', triggers: [triggers.ItemStateChangeTrigger('Nowhere')], execute: () => {} });"
            #expect(s.problems().contains { $0.contains("Nowhere") })
        }

        @Test func withoutNodeTheScenarioIsUnavailable() throws {
            let s = JSScenario()
            s.files["automation/js/a.js"] = "rules.JSRule({ name: 'x', execute: () => {} });"
            NodeExecutable.$environmentOverride.withValue([NodeExecutable.environmentVariable: "/nonexistent/node"]) {
                do {
                    _ = try s.load()
                    Issue.record("a JavaScript scenario loaded without node")
                } catch let error as ScenarioError {
                    #expect(error.code == .unavailable)
                    #expect(error.message.contains("install Node.js 18 or newer") && !error.message.contains("\n"), "\(error.message)")
                } catch {
                    Issue.record("unexpected error \(error)")
                }
            }
        }

        /// A `node` that is the real one with a saboteur preloaded, which acts on the child's fifth answer (the
        /// answer to the first rule run: validation's init and load, then the world's, come first — one child).
        private func saboteur(_ s: JSScenario, _ action: String) throws -> String {
            let node = try NodeExecutable.locate().path
            let sabotage = "\(s.directory)/sabotage.js"
            try? FileManager.default.createDirectory(atPath: s.directory, withIntermediateDirectories: true)
            try """
            const fs = require('fs');
            const write = fs.writeSync;
            let answers = 0;
            fs.writeSync = function (fd, ...rest) {
              if (fd === 1 && ++answers === 5) { \(action) }
              return write.call(fs, fd, ...rest);
            };
            """.write(toFile: sabotage, atomically: true, encoding: .utf8)
            let wrapper = "\(s.directory)/node"
            try "#!/bin/sh\ncase \"$1\" in --version) exec \(node) --version;; esac\nexec \(node) --require \(sabotage) \"$@\"\n"
                .write(toFile: wrapper, atomically: true, encoding: .utf8)
            chmod(wrapper, 0o755)
            return wrapper
        }

        private func sabotaged(_ action: String) async throws -> String {
            let s = JSScenario()
            s.items = Self.items
            s.files["automation/js/victim.js"] = "\nrules.JSRule({\n  name: 'Victim',\n  triggers: [triggers.TimeOfDayTrigger('10:00')],\n  execute: () => items.Lamp.sendCommand('ON'),\n});\n"
            let node = try saboteur(s, action)
            return try await NodeExecutable.$environmentOverride.withValue([NodeExecutable.environmentVariable: node]) {
                do {
                    _ = try await s.run()
                    Issue.record("the run went on after its child failed")
                    return ""
                } catch let error as ScenarioError {
                    #expect(childNodeProcesses(of: s.directory).isEmpty, "\(childNodeProcesses(of: s.directory).map(processDescription))")
                    return error.message
                }
            }
        }

        @Test func aChildKilledMidRunIsALocatedErrorOfTheRun() async throws {
            let message = try await sabotaged("process.kill(process.pid, 'SIGKILL');")
            #expect(message.contains("rules.jsChild") && message.contains("rule \"Victim\"") && message.contains("automation/js/victim.js:2"), "\(message)")
            #expect(message.contains("killed by signal 9") || message.contains("exited"), "\(message)")
        }

        @Test func aMalformedAnswerIsALocatedErrorOfTheRun() async throws {
            let message = try await sabotaged("const junk = Buffer.from('{oops'); const h = Buffer.alloc(4); h.writeUInt32BE(junk.length); write.call(fs, 1, Buffer.concat([h, junk])); return 0;")
            #expect(message.contains("rules.jsChild") && message.contains("malformed") && message.contains("rule \"Victim\""), "\(message)")
        }
    }
}
