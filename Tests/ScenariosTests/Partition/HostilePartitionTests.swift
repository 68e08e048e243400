import Foundation
@testable import ScenarioFormat
@testable import Scenarios
import Simulation
import Testing
import Twin

/// Partition directories edited with care — each file's size and hash and the manifest's check made to
/// match again — are still refused by what the merge reads, never a crash.
@Suite("Hostile partitions")
struct HostilePartitionTests {
    /// Replaces `name` in the part at `directory` with `text` and rewrites its manifest to match.
    static func forge(_ directory: String, _ name: String, _ edit: (String) -> String) throws {
        let manifestPath = (directory as NSString).appendingPathComponent(PartitionSummary.manifestName)
        let summary = try PartitionSummary.read(manifest: try String(contentsOfFile: manifestPath, encoding: .utf8), path: manifestPath)
        let path = (directory as NSString).appendingPathComponent(name)
        let original = try String(contentsOfFile: path, encoding: .utf8)
        let text = edit(original)
        #expect(text != original, "the edit of \(name) changes nothing")
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        let forged = summary.replacing(report: name, with: Array(text.utf8))
        try forged.manifestText.write(toFile: manifestPath, atomically: true, encoding: .utf8)
    }

    @Test func forgedReportsAreRefusedAsCorrupt() async throws {
        let root = (NSTemporaryDirectory() as NSString).appendingPathComponent("hostile-\(UUID().uuidString)")
        try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: root) }
        let file = (root as NSString).appendingPathComponent("p.json")
        try PortfolioGenerator.json(flats: 4, days: 3, seed: 6).write(toFile: file, atomically: true, encoding: .utf8)
        let loaded = try PortfolioRun.load(file, seed: nil)
        let edits: [(String, (String) -> String, String)] = [
            ("kpi.csv", { "x\n" + $0.split(separator: "\n", omittingEmptySubsequences: false).dropFirst().joined(separator: "\n") }, "a one-column header"),
            ("energy-daily.csv", { text in
                var lines = text.split(separator: "\n").map(String.init)
                lines.swapAt(1, lines.count - 1)
                return lines.joined(separator: "\n") + "\n"
            }, "rows out of order"),
            ("energy-daily.csv", { $0.replacingOccurrences(of: ",flat-1,", with: ",flat-0,") }, "rows of another part's listing"),
            ("timeseries.csv", { String($0.dropLast(40)) + "\n" }, "a tick cut short"),
            ("timeseries.csv", { $0.replacingOccurrences(of: "T00:15+01:00,flat-3", with: "T00:30+01:00,flat-3") }, "a tick at another time"),
            ("stays.csv", { $0 + "\"unclosed" }, "an unclosed quote"),
            ("page-record.json", { String($0.dropLast(4)) }, "a page record cut short"),
            ("page-record.json", { $0.replacingOccurrences(of: "\"ruleRuns\": 0", with: "\"ruleRuns\":0") }, "a page record not in its own form"),
            ("page-record.json", { $0.replacingOccurrences(of: "\"format\": 1", with: "\"format\": \"1\"") }, "a page record's format mistyped"),
            ("page-record.json", { $0.replacingOccurrences(of: "\"stays\": [", with: "\"stays\": [[1, 2],") }, "a page record's stay mistyped"),
        ]
        for (index, (name, edit, what)) in edits.enumerated() {
            var directories: [String] = []
            for part in 1...2 {
                let directory = (root as NSString).appendingPathComponent("\(index)-part-\(part)")
                _ = try await PortfolioRun.runPartition(loaded, part: part, of: 2, world: World.Options(recordTimeseries: .minutes(15)), withLog: false, directory: directory)
                directories.append(directory)
            }
            #expect(try PartitionSet.read(directories).summary.passed)
            try Self.forge(directories[1], name, edit)
            let set = try PartitionSet.read(directories)  // the manifests agree with the files again
            let out = (root as NSString).appendingPathComponent("\(index)-merged")
            // Merged as merge writes the page, and as a part merges its smaller parts' records.
            for page in [PartitionSet.Page.html(loaded.scenario), .record] {
                #expect(throws: PartitionError.self, "\(what)") { _ = try set.writeReports(to: out, page: page) }
                do { _ = try set.writeReports(to: out, page: page) } catch let error as PartitionError {
                    #expect(error.code == .corrupt, "\(what): \(error)")
                }
                #expect(!FileManager.default.fileExists(atPath: out), "\(what)")
            }
        }
    }
}
