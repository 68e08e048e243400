import Foundation
import JavaScript
import ScenarioFormat
import Scenarios
import Testing

extension JavaScriptSuite {
    /// The pipe between the twin and its Node.js child: how many messages a run costs, and what a child that
    /// breaks the framing gets.
    @Suite struct JSTransportTests {
        static let items = """
        [ { "name": "A", "type": "Number", "state": "1.5" }, { "name": "B", "type": "Number", "state": "2" },
          { "name": "Sum", "type": "Number", "state": "0" }, { "name": "Lamp", "type": "Switch", "state": "OFF" } ]
        """

        /// A `node` that is the real one with `preload` required first.
        private func wrappedNode(_ s: JSScenario, preload: String) throws -> String {
            let node = try NodeExecutable.locate().path
            try? FileManager.default.createDirectory(atPath: s.directory, withIntermediateDirectories: true)
            let script = "\(s.directory)/preload.js"
            try preload.write(toFile: script, atomically: true, encoding: .utf8)
            let wrapper = "\(s.directory)/node"
            try "#!/bin/sh\ncase \"$1\" in --version) exec \(node) --version;; esac\nexec \(node) --require \(script) \"$@\"\n"
                .write(toFile: wrapper, atomically: true, encoding: .utf8)
            chmod(wrapper, 0o755)
            return wrapper
        }

        @Test func aRunThatAsksNothingIsOneMessageEachWay() async throws {
            let s = JSScenario()
            s.items = Self.items
            s.end = "2026-01-09T02:00"
            s.files["automation/js/sum.js"] = """
            const { items, rules, triggers } = require('openhab');
            rules.JSRule({
              name: 'Sum',
              triggers: [triggers.GenericCronTrigger('0 * * * * ?')],
              execute: () => items.Sum.postUpdate(items.A.numericState + items.B.numericState + items.Sum.numericState),
            });
            """
            s.expect = #"{ "item": "Sum", "state": "420" }, { "rule": "Sum", "runs": 120 }"#
            // Counts the child's reads of its stdin that got bytes and its writes to its stdout, in a file replaced whole
            // (the child is killed, not exited).
            let counts = "\(s.directory)/counts"
            let node = try wrappedNode(s, preload: """
            const fs = require('fs');
            const read = fs.readSync, write = fs.writeSync, open = fs.openSync;
            let reads = 0, writes = 0, stdinAgain = -1;
            const save = () => { fs.writeFileSync('\(counts).tmp', `${reads} ${writes}`); fs.renameSync('\(counts).tmp', '\(counts)'); };
            // The host's spin reads a second open of its stdin.
            fs.openSync = function (p, ...rest) { const fd = open.call(fs, p, ...rest); if (p === '/proc/self/fd/0') stdinAgain = fd; return fd; };
            fs.readSync = function (fd, ...rest) { const n = read.call(fs, fd, ...rest); if ((fd === 0 || fd === stdinAgain) && n > 0) { reads++; save(); } return n; };
            fs.writeSync = function (fd, ...rest) { if (fd === 1) { writes++; save(); } return write.call(fs, fd, ...rest); };
            """)
            try await NodeExecutable.$environmentOverride.withValue([NodeExecutable.environmentVariable: node]) {
                let result = try await s.run()
                #expect(result.passed, "\(result.failures)")
            }
            // One child for validation and run (a second child would have started its counts afresh): validation's
            // init and load, the world's init and load, 120 runs — each one read and one write (the script asks the
            // twin nothing).
            let text = try String(contentsOfFile: counts, encoding: .utf8)
            #expect(text == "124 124", "reads and writes of the child: \(text)")
        }

        /// Messages larger than either side's read buffer (64 KiB): a 150 kB script file in, a 200 kB log line out.
        @Test func messagesLargerThanTheReadBuffersArriveWhole() async throws {
            let s = JSScenario()
            s.items = Self.items
            s.end = "2026-01-09T00:02"
            let padding = String(repeating: "// padding padding padding padding padding padding padding padding\n", count: 2_300)
            s.files["automation/js/big.js"] = padding + """
            const { rules, triggers } = require('openhab');
            rules.JSRule({
              name: 'Big',
              triggers: [triggers.GenericCronTrigger('0 * * * * ?')],
              execute: () => console.info('x'.repeat(200000) + '|end'),
            });
            """
            #expect(padding.utf8.count > 150_000)
            let result = try await s.run()
            #expect(result.passed, "\(result.failures)")
            let lines = result.log.filter { $0.contains("rule \"Big\"") }
            #expect(lines.count == 2 && lines.allSatisfy { $0.contains(String(repeating: "x", count: 200_000) + "|end") }, "\(lines.map(\.count))")
        }

        private func brokenAnswer(_ action: String) async throws -> String {
            let s = JSScenario()
            s.items = Self.items
            s.files["automation/js/victim.js"] = "\nrules.JSRule({\n  name: 'Victim',\n  triggers: [triggers.TimeOfDayTrigger('10:00')],\n  execute: () => items.Lamp.sendCommand('ON'),\n});\n"
            // Acts on the child's fifth answer (validation's init and load, the world's init and load come first).
            let node = try wrappedNode(s, preload: """
            const fs = require('fs');
            const write = fs.writeSync;
            let answers = 0;
            const frame = (bytes) => { const h = Buffer.alloc(4); h.writeUInt32BE(bytes.length); return Buffer.concat([h, bytes]); };
            fs.writeSync = function (fd, ...rest) {
              if (fd === 1 && ++answers === 5) { \(action) }
              return write.call(fs, fd, ...rest);
            };
            """)
            return try await NodeExecutable.$environmentOverride.withValue([NodeExecutable.environmentVariable: node]) {
                do {
                    _ = try await s.run()
                    Issue.record("the run went on after its child answered wrongly")
                    return ""
                } catch let error as ScenarioError {
                    #expect(childNodeProcesses(of: s.directory).isEmpty, "\(childNodeProcesses(of: s.directory).map(processDescription))")
                    return error.message
                }
            }
        }

        @Test(arguments: [
            // Half an answer, then the child exits.
            ("const h = Buffer.alloc(4); h.writeUInt32BE(100); write.call(fs, 1, Buffer.concat([h, Buffer.from('{\"ok\":')])); process.exit(0);",
             "exited in the middle of an answer"),
            // An answer that is not UTF-8.
            ("write.call(fs, 1, frame(Buffer.from([0x7b, 0x22, 0xff, 0x22, 0x3a, 0x31, 0x7d]))); return 0;", "expected UTF-8 text in a string"),
            // An answer whose effect is not one the host writes.
            ("write.call(fs, 1, frame(Buffer.from('{\"ok\":true,\"effects\":[{\"k\":\"cmd\",\"item\":5}]}'))); return 0;", "malformed effect"),
            // A length over the limit.
            ("const h = Buffer.alloc(4); h.writeUInt32BE(0x7fffffff); write.call(fs, 1, h); return 0;", "over the limit"),
        ])
        func aBrokenAnswerIsALocatedErrorOfTheRun(action: String, says: String) async throws {
            let message = try await brokenAnswer(action)
            #expect(message.contains("rules.jsChild") && message.contains(says) && message.contains("rule \"Victim\""), "\(message)")
        }
    }
}
