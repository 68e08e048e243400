import Foundation
import ScenarioFormat
import Simulation
import Twin

/// A deterministic mutation fuzzer over partition directories (`run --partition K/N --report DIR`) and
/// their merge: the seed is a generated portfolio run as parts once; input *n* of a seed is always the
/// same mutation of those parts' files — bytes cut or flipped, CSV lines dropped, repeated, swapped or
/// their fields replaced, the manifest's JSON mutated as scenarios are, a file removed, a part left out
/// or given twice, parts swapped — half of the file edits then *forged* (the manifest's size, hash and
/// check made to match again, so the merge reads the edited bytes). ``check(_:in:)`` merges them as
/// `rental-twin merge` does and judges how it ended.
///
/// An input ends as a user may see it end when the merge refuses it with a `partition.*` code and writes
/// nothing, or merges it; a merge of parts not forged must write exactly the whole run's bytes (an edit
/// the manifests should have caught and did not is a finding). A crash or hang is a finding too: the
/// input is on disk before it runs.
public struct PartitionFuzzer: Sendable {
    /// One part's files as it wrote them: name → bytes.
    public typealias Part = [(name: String, bytes: [UInt8])]

    /// One input: the parts to merge, in the order given, and what was done to them.
    public struct Input: Sendable {
        public let index: Int
        public let parts: [Part]
        /// Whether the edits were forged (the manifests agree with the files again).
        public let forged: Bool
        /// What was done, for the summary.
        public let what: String
    }

    /// How an input ended when it was no finding.
    public enum Outcome: String, Sendable, CaseIterable {
        /// Merged (into the whole run's bytes when nothing was forged).
        case merged
        /// Refused with a `partition.*` code, nothing written.
        case refused
    }

    public enum Verdict: Sendable, Equatable {
        case outcome(Outcome)
        /// What went wrong, in a sentence.
        case finding(String)
    }

    /// The seed's parts (part 1 first) and the whole run's reports, name → bytes.
    public let seedParts: [Part]
    public let whole: [String: [UInt8]]
    public let seed: UInt64

    /// Runs a generated portfolio (4 flats, 3 days) as 2 parts in `scratch` and reads them back, and
    /// merges them for the whole run's reports.
    /// - Throws: what a run or the merge throws (a bug: the seed is the project's own generator).
    public static func make(seed: UInt64, scratch: String) async throws -> PartitionFuzzer {
        try FileManager.default.createDirectory(atPath: scratch, withIntermediateDirectories: true)
        let file = (scratch as NSString).appendingPathComponent("portfolio.json")
        try PortfolioGenerator.json(flats: 4, days: 3, seed: 6).write(toFile: file, atomically: true, encoding: .utf8)
        let loaded = try PortfolioRun.load(file, seed: nil)
        var directories: [String] = []
        for part in 1...2 {
            let directory = (scratch as NSString).appendingPathComponent("seed-part-\(part)")
            try? FileManager.default.removeItem(atPath: directory)
            _ = try await PortfolioRun.runPartition(loaded, part: part, of: 2, world: World.Options(recordTimeseries: .minutes(15)), withLog: true, directory: directory)
            directories.append(directory)
        }
        let out = (scratch as NSString).appendingPathComponent("seed-merged")
        try? FileManager.default.removeItem(atPath: out)
        _ = try PartitionSet.read(directories).writeReports(to: out, page: .record)
        return PartitionFuzzer(seedParts: try directories.map(readPart), whole: Dictionary(uniqueKeysWithValues: try readPart(out).map { ($0.name, $0.bytes) }),
                               seed: seed)
    }

    /// Every file of `directory`, sorted by name.
    static func readPart(_ directory: String) throws -> Part {
        try FileManager.default.contentsOfDirectory(atPath: directory).sorted().map { name in
            (name, [UInt8](try Data(contentsOf: URL(fileURLWithPath: (directory as NSString).appendingPathComponent(name)))))
        }
    }

    /// Input number `index`: one to three mutations of the seed's parts.
    public func input(_ index: Int) -> Input {
        var random = FuzzRandom(stream: SplitMix64.stream(seed: seed, named: "fuzz-partition-\(index)"))
        var parts = seedParts
        var what: [String] = []
        let forged = random.chance(0.5)
        for _ in 0..<(1 + random.pick(3)) {
            let p = random.pick(parts.count)
            guard !parts[p].isEmpty else { continue }
            let f = random.pick(parts[p].count)
            let name = parts[p][f].name
            switch random.pick(10) {
            case 0:
                parts[p].remove(at: f)
                what.append("part \(p + 1): \(name) removed")
            case 1:
                if parts.count > 1 { parts.remove(at: p); what.append("part \(p + 1) left out") }
            case 2:
                parts.append(parts[p])
                what.append("part \(p + 1) given twice")
            case 3:
                parts.swapAt(0, parts.count - 1)
                what.append("parts given in another order")
            default:
                let (after, how) = Self.edit(&random, name, parts[p][f].bytes)
                parts[p][f].bytes = after
                what.append("part \(p + 1): \(name) \(how)")
                if forged { parts[p] = Self.forge(parts[p], editing: name) }
            }
        }
        return Input(index: index, parts: parts, forged: forged, what: what.joined(separator: "; ") + (forged ? " (forged)" : ""))
    }

    /// Fields hostile to the merge's CSV reader.
    static let fieldValues = ["", "\"", "\"\"", "\"a\nb\"", "flat-0", "flat-9", "zz", "-1", "1e308", "NaN", "2026-01-01T00:15+01:00",
                              "9999-12-31T23:59+01:00", String(repeating: "9", count: 300), "a,b", "\u{0}", "é"]

    /// One edit of a file's bytes: a byte-level cut or flip, or a line-level one as `LineMutation` makes
    /// them (the manifest's JSON as scenarios are mutated).
    static func edit(_ random: inout FuzzRandom, _ name: String, _ bytes: [UInt8]) -> ([UInt8], String) {
        switch random.pick(6) {
        case 0:
            let at = random.pick(bytes.count + 1)
            return (Array(bytes[..<at]), "cut at byte \(at)")
        case 1:
            guard !bytes.isEmpty else { return ([UInt8(ascii: "x")], "given a byte") }
            var edited = bytes
            let at = random.pick(bytes.count)
            edited[at] ^= UInt8(1 << random.pick(8))
            return (edited, "byte \(at) flipped")
        default:
            let text = String(decoding: bytes, as: UTF8.self)
            if name == PartitionSummary.manifestName, random.chance(0.5) {
                return (Array(JSONFileMutation.mutate(&random, text, [text]).utf8), "JSON mutated")
            }
            let edited = LineMutation.mutateLines(&random, text, fieldValues, whenEmpty: { _ in "time,listing" }) { random, lines, i, _, _ in
                var fields = lines[i].split(separator: ",", omittingEmptySubsequences: false).map(String.init)
                fields[random.pick(fields.count)] = random.element(fieldValues) ?? ""
                lines[i] = fields.joined(separator: ",")
            }
            return (Array(edited.utf8), "lines mutated")
        }
    }

    /// `part` with its manifest made to agree with the edited `name` again: the report's size and hash,
    /// then the check over the manifest's text (an edited manifest gets only its check). A part whose
    /// manifest no longer reads is left as it is.
    public static func forge(_ part: Part, editing name: String) -> Part {
        guard let m = part.firstIndex(where: { $0.name == PartitionSummary.manifestName }),
              let text = String(validating: part[m].bytes, as: UTF8.self) else { return part }
        var forged = part
        if name == PartitionSummary.manifestName {
            // The edited text's own fields, with a check that matches them: cut the old check off, add a new one.
            guard let cut = text.range(of: ",\n  \"check\": ", options: .backwards) else { return part }
            let body = String(text[..<cut.lowerBound])
            forged[m].bytes = Array((body + ",\n  \"check\": \"\(PartitionSummary.hex(StableHash.fnv1a64(body)))\"\n}\n").utf8)
            return forged
        }
        guard let summary = try? PartitionSummary.read(manifest: text, path: PartitionSummary.manifestName),
              let edited = part.first(where: { $0.name == name })?.bytes else { return part }
        forged[m].bytes = Array(summary.replacing(report: name, with: edited).manifestText.utf8)
        return forged
    }

    /// Writes `input`'s parts under `directory` as `part-1`, `part-2`, … (the order given), replacing what was there.
    /// - Returns: the part directories.
    @discardableResult
    public static func write(_ input: Input, to directory: String) throws -> [String] {
        try? FileManager.default.removeItem(atPath: directory)
        var directories: [String] = []
        for (k, part) in input.parts.enumerated() {
            let partDirectory = (directory as NSString).appendingPathComponent("part-\(k + 1)")
            try FileManager.default.createDirectory(atPath: partDirectory, withIntermediateDirectories: true)
            for file in part {
                let path = (partDirectory as NSString).appendingPathComponent(file.name)
                guard file.bytes.withUnsafeBytes({ FuzzCampaign.write($0, to: path) }) else {
                    throw ScenarioError(.writeFailed, "cannot write \(path).", file: path)
                }
            }
            directories.append(partDirectory)
        }
        return directories
    }

    /// Writes `input` under `scratch`, merges it as `rental-twin merge` does (the manifests, then the
    /// reports into `scratch/merged`) and judges how it ended.
    public func check(_ input: Input, in scratch: String) -> Verdict {
        let directories: [String]
        do { directories = try Self.write(input, to: (scratch as NSString).appendingPathComponent("parts")) } catch {
            return .finding("the input could not be written to \(scratch): \(error)")
        }
        let out = (scratch as NSString).appendingPathComponent("merged")
        try? FileManager.default.removeItem(atPath: out)
        do {
            let set = try PartitionSet.read(directories)
            _ = set.summary
            _ = try set.writeReports(to: out, page: .record)
        } catch let error as PartitionError {
            if FileManager.default.fileExists(atPath: out) { return .finding("refused (\(error.code.rawValue)) but \(out) was written: \(error.message)") }
            return .outcome(.refused)
        } catch {
            return .finding("the merge ended with an error that is no partition.* refusal: \(error)")
        }
        guard !input.forged else { return .outcome(.merged) }
        let merged: Part
        do { merged = try Self.readPart(out) } catch { return .finding("the merge wrote \(out) but it cannot be read: \(error)") }
        guard merged.count == whole.count else { return .finding("the merge wrote \(merged.count) files, not the whole run's \(whole.count)") }
        for file in merged where whole[file.name] != file.bytes {
            return .finding("edited parts merged unnoticed: \(file.name) differs from the whole run's")
        }
        return .outcome(.merged)
    }
}
