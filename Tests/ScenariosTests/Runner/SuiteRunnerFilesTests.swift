import Foundation
@testable import ScenarioFormat
@testable import Scenarios
import Testing
import Twin

/// Telling rule files from scenarios in a suite directory without parsing a big scenario whole.
@Suite("Suite files: rule files are told from scenarios")
struct SuiteRunnerFilesTests {
    @Test("only an object whose first member's value may be an object is parsed; a scenario's opening says no")
    func firstMember() {
        #expect(SuiteRunner.firstMember(#"{ "version": 1, "rules": {} }"#.utf8) == .notAnObjectValue)
        #expect(SuiteRunner.firstMember("\u{FEFF}\n {\"na\\\"me\" :\t[1]}".utf8) == .notAnObjectValue)
        #expect(SuiteRunner.firstMember(#"{"heating-rule": {"class": "x", "value": {}}}"#.utf8) == .mayBeObjectValue)
        #expect(SuiteRunner.firstMember(#" { "a\"b" : {"#.utf8) == .mayBeObjectValue)
        #expect(SuiteRunner.firstMember(" \n[ {} ]".utf8) == .array)
        for unsure in ["{}", "{ 1: 2 }", "{\"unterminated", "{\"a\" 1}", "{\"a\":"] {
            #expect(SuiteRunner.firstMember(unsure.utf8) == .mayBeObjectValue, "\(unsure)")
        }
        for neither in ["", "  ", "42", "\"text\""] {
            #expect(SuiteRunner.firstMember(neither.utf8) == .neither, "\(neither)")
        }
    }

    @Test("a directory's rule files (openHAB's JSON database) are left out, its scenarios kept, as before the quick look")
    func directory() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("suite-files-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let files = [
            "a-scenario.json": #"{ "version": 1, "name": "x" }"#,
            "b-rules.json": #"{ "r1": { "class": "org.openhab.core.automation.dto.RuleDTO", "value": { "uid": "r1" } } }"#,
            "c-object-first.json": #"{ "weather": { "class": "not all members" }, "version": 1 }"#,
            "d-array-rules.json": #"[ { "uid": "r2" } ]"#,
        ]
        for (name, text) in files { try Data(text.utf8).write(to: URL(fileURLWithPath: "\(dir)/\(name)")) }
        #expect(try SuiteRunner.scenarioFiles(in: dir).map { ($0 as NSString).lastPathComponent } == ["a-scenario.json", "c-object-first.json"])
    }
}
