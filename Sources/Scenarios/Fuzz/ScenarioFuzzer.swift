import Foundation
import Rules
import ScenarioFormat
import Simulation
import Twin

/// A deterministic mutation fuzzer over scenario files: input *n* of a seed is always the same text,
/// and ``check(_:eventsPerListingDay:)`` says whether it ended as a user may see it end — passed, failed or
/// invalid (exit 0, 1, 65) within a budget of kernel events, with no `nan`/`inf` in anything printed
/// or reported — or is a ``FuzzFinding``.
///
/// Inputs `0..<corpus.count` are the seed scenarios themselves (a baseline: they must pass or fail,
/// never be findings); every later input is one to four structure-aware mutations
/// (``ScenarioMutator``) of a seed scenario chosen by the input's own random stream.
public struct ScenarioFuzzer: Sendable {
    /// One input: its number, the seed scenario it came from, and its text — with, for a side-file
    /// target, the side file mutated (the scenario's text then is the seed's own).
    public struct Input: Sendable, Equatable {
        public let index: Int
        public let base: String
        public let text: String
        /// The kind of file mutated (``FuzzTarget/name``).
        public var target = FuzzTarget.scenario.name
        /// The mutated side file, when the target is one.
        public var sideFile: SideFile?

        public init(index: Int, base: String, text: String, target: String = FuzzTarget.scenario.name, sideFile: SideFile? = nil) {
            self.index = index
            self.base = base
            self.text = text
            self.target = target
            self.sideFile = sideFile
        }
    }

    /// A side file's new text, and the path the scenario names it by (relative to the scenario, or absolute).
    public struct SideFile: Sendable, Equatable {
        public let reference: String
        public let text: String
    }

    /// A side file of a seed scenario, of some target kind.
    struct SideSeed: Sendable {
        let base: Int
        let reference: String
        let text: String
    }

    /// How an input ended when it was no finding.
    public enum Outcome: String, Sendable, CaseIterable {
        /// Every expectation held (exit 0).
        case passed
        /// Some expectation or step failed (exit 1).
        case failed
        /// The file was refused with located messages (exit 65).
        case invalid
    }

    /// The verdict on one input.
    public enum Verdict: Sendable, Equatable {
        case outcome(Outcome)
        case finding(FuzzFinding)
    }

    private let corpus: [(name: String, root: JSONNode, text: String)]
    private let dictionary: FuzzDictionary
    /// The kinds of file mutated, and per side-file kind its seeds and dictionary.
    public let targets: [FuzzTarget]
    private let sideSeeds: [String: [SideSeed]]
    private let sideDictionaries: [String: [String]]
    /// The campaign's seed.
    public let seed: UInt64

    /// A fuzzer over `corpus` (file name and text of each seed scenario) and the side files its
    /// scenarios name, mutating the kinds `targets`.
    /// - Throws: ``ScenarioError`` `scenario.invalid` when a seed is not JSON, the corpus is empty, or
    ///   no seed scenario names a side file of a target kind.
    public init(corpus: [(name: String, text: String)], seed: UInt64, targets: [FuzzTarget] = FuzzTarget.all) throws(ScenarioError) {
        guard !corpus.isEmpty else {
            throw ScenarioError(.invalid, "the fuzzer needs at least one seed scenario.", file: "")
        }
        var parsed: [(name: String, root: JSONNode, text: String)] = []
        for entry in corpus {
            do { parsed.append((entry.name, try JSONParser.parse(entry.text), entry.text)) } catch {
                throw ScenarioError(.invalid, "the seed scenario \(entry.name) is not JSON (line \(error.line)): \(error.message).", file: entry.name)
            }
        }
        self.corpus = parsed
        dictionary = FuzzDictionary(roots: parsed.map(\.root))
        self.seed = seed
        self.targets = targets.isEmpty ? [FuzzTarget.scenario] : targets
        var sideSeeds: [String: [SideSeed]] = [:], sideDictionaries: [String: [String]] = [:]
        for target in self.targets {
            guard let matches = target.matches else { continue }
            var seeds: [SideSeed] = []
            for (index, entry) in parsed.enumerated() {
                for reference in Self.sideFileReferences(entry.root, scenario: entry.name) where matches(reference.lowercased()) {
                    let path = ScenarioDecoder.resolvedSidePath(reference, scenarioFile: entry.name)
                    guard let text = try? String(contentsOfFile: path, encoding: .utf8) else { continue }
                    seeds.append(SideSeed(base: index, reference: reference, text: text))
                }
            }
            guard !seeds.isEmpty else {
                throw ScenarioError(.invalid, "no seed scenario names a side file of the fuzz target \"\(target.name)\" (\(target.summary)).",
                                    file: parsed.first?.name ?? "")
            }
            sideSeeds[target.name] = seeds
            sideDictionaries[target.name] = target.dictionary(Array(Set(seeds.map(\.text))).sorted())
        }
        self.sideSeeds = sideSeeds
        self.sideDictionaries = sideDictionaries
    }

    /// The strings of a scenario that name an existing file relative to it (its side files), once each, in walk order.
    static func sideFileReferences(_ root: JSONNode, scenario: String) -> [String] {
        var result: [String] = []
        var seen: Set<String> = []
        func walk(_ node: JSONNode) {
            switch node.value {
            case .string(let s):
                guard !s.isEmpty, !s.hasPrefix("/"), s.utf8.count < 1_024, !seen.contains(s) else { return }
                var isDirectory: ObjCBool = false
                let path = ScenarioDecoder.resolvedSidePath(s, scenarioFile: scenario)
                guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else { return }
                if !isDirectory.boolValue {
                    seen.insert(s)
                    result.append(s)
                } else {
                    // A transform directory (`transformFiles`): its .map and .scale files, by their own paths.
                    seen.insert(s)
                    let names = ((try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []).sorted()
                    for name in names where TransformFile.kind(ofFileNamed: name) != nil {
                        let reference = s.hasSuffix("/") ? s + name : s + "/" + name
                        if seen.insert(reference).inserted { result.append(reference) }
                    }
                    // An `openhabConf` directory: its things/*.things and persistence/*.persist files.
                    for (folder, ext) in [("things", ".things"), ("persistence", ".persist")] {
                        let members = ((try? FileManager.default.contentsOfDirectory(atPath: "\(path)/\(folder)")) ?? []).sorted()
                        for name in members where name.hasSuffix(ext) && !name.hasPrefix(".") {
                            let reference = (s.hasSuffix("/") ? s : s + "/") + "\(folder)/\(name)"
                            if seen.insert(reference).inserted { result.append(reference) }
                        }
                    }
                }
            case .array(let elements): elements.forEach(walk)
            case .object(let members): members.forEach { walk($0.value) }
            default: break
            }
        }
        walk(root)
        return result
    }

    /// Reads every `*.json` scenario below `directory` as a corpus, sorted by path.
    /// - Throws: ``ScenarioError`` `scenario.unreadable`.
    public static func corpus(in directory: String) throws(ScenarioError) -> [(name: String, text: String)] {
        var result: [(name: String, text: String)] = []
        for path in try SuiteRunner.scenarioFiles(in: directory) {
            guard let text = try? String(contentsOfFile: path, encoding: .utf8) else {
                throw ScenarioError(.unreadable, "cannot read \(path) as UTF-8 text.", file: path)
            }
            result.append((path, text))
        }
        return result
    }

    /// Input number `index`: a seed scenario unchanged for `index < corpus.count`, else a mutant of a
    /// target kind chosen by the input's own random stream (no choice with one target, so a
    /// scenario-only campaign judges the inputs it judged before side-file targets existed).
    public func input(_ index: Int) -> Input {
        if index < corpus.count { return Input(index: index, base: corpus[index].name, text: corpus[index].text) }
        var random = SplitMix64.stream(seed: seed, named: "fuzz-input-\(index)")
        let target = targets.count == 1 ? targets[0] : targets[Int(random.next() % UInt64(targets.count))]
        if let seeds = sideSeeds[target.name], !seeds.isEmpty {
            let side = seeds[Int(random.next() % UInt64(seeds.count))]
            var choices = FuzzRandom(stream: random)
            var text = target.mutate(&choices, side.text, sideDictionaries[target.name] ?? [])
            // A mutation can change nothing (a line swapped with itself); mutate again, a few times at most.
            for _ in 0..<8 where text == side.text { text = target.mutate(&choices, side.text, sideDictionaries[target.name] ?? []) }
            let base = corpus[side.base]
            return Input(index: index, base: base.name, text: base.text, target: target.name,
                         sideFile: SideFile(reference: side.reference, text: text))
        }
        let base = corpus[Int(random.next() % UInt64(corpus.count))]
        var mutator = ScenarioMutator(random: random, dictionary: dictionary)
        return Input(index: index, base: base.name, text: mutator.mutate(base.root).text(pretty: true) + "\n")
    }

    /// The longest input (listings × simulated days) whose reports the fuzzer builds: ten listing-years,
    /// some 350,000 snapshots and a few hundred MB; longer inputs are run and judged without reports.
    static let maxReportedListingDays = 3_650

    /// The report interval the fuzzer builds reports with.
    static let reportInterval = SimDuration.minutes(15)

    /// Kernel events a run of `scenario` may take: `perListingDay` for each listing (at least one) and
    /// each simulated day (at least one, partial days counted whole). A long span is not a hang; an
    /// event storm is a rate, so the budget scales with what the file asks to simulate.
    public static func eventBudget(for scenario: Scenario, perListingDay: Int) -> Int {
        let days = max(1, Int(((scenario.end - scenario.start).milliseconds + 86_399_999) / 86_400_000))
        let listings = max(1, scenario.listings.count)
        let (product, overflow) = perListingDay.multipliedReportingOverflow(by: days * listings)
        return overflow ? Int.max : product
    }

    /// Decodes, runs and reports `input` in memory and judges how it ended.
    /// - Parameter eventsPerListingDay: kernel events allowed per listing and simulated day (see
    ///   ``eventBudget(for:perListingDay:)``); more is a ``FuzzFinding/Kind/hang``.
    /// - Parameter progress: told after each simulated day (a watchdog's sign of life).
    public static func check(_ input: Input, eventsPerListingDay: Int, progress: ScenarioRunner.Progress? = nil) async -> Verdict {
        func finding(_ kind: FuzzFinding.Kind, _ detail: String) -> Verdict {
            .finding(FuzzFinding(kind: kind, index: input.index, base: input.base, detail: detail, text: input.text,
                                 target: input.target, sideFile: input.sideFile))
        }
        // Named as if beside its seed scenario, so that side files (`epw`, `calendars`, price CSVs) resolve as they do for it.
        let directory = (input.base as NSString).deletingLastPathComponent
        let file = directory.isEmpty ? "fuzz-\(input.index).json" : "\(directory)/fuzz-\(input.index).json"
        let sideFiles = input.sideFile.map { [ScenarioDecoder.resolvedSidePath($0.reference, scenarioFile: file): $0.text] } ?? [:]
        let scenario: Scenario
        do {
            scenario = try ScenarioDecoder.decode(input.text, file: file, sideFiles: sideFiles)
        } catch {
            if let token = nonFiniteToken(in: error.description, notIn: input.text + (input.sideFile?.text ?? "")) {
                return finding(.nonFinite, "the validation message says \"\(token)\": \(firstLine(containing: token, in: error.description))")
            }
            return error.code == .invalid ? .outcome(.invalid) : finding(.runFailed, error.description)
        }
        // Reports are built in memory (issue 14: not yet streamed), so a mutant simulating decades
        // would exhaust the machine: beyond the bound an input runs without reports.
        let listingDays = eventBudget(for: scenario, perListingDay: 1)
        let withReports = listingDays <= maxReportedListingDays
        let result: ScenarioResult
        let options = World.Options(recordTimeseries: withReports ? reportInterval : nil,
                                    eventBudget: eventBudget(for: scenario, perListingDay: eventsPerListingDay), progress: progress)
        do {
            result = try await ScenarioRunner.run(scenario, options: options)
        } catch {
            if error.code == .eventBudget { return finding(.hang, error.message) }
            // A rule that keeps firing at one instant, or rules that use up their work budget (RuleEngine+Execution),
            // stop the run as `run.stalled` naming the rule: the user's rules' doing, reported as such — an end a
            // user may see, not a finding.
            if error.code == .runFailed, error.message.contains("run.stalled: "), error.message.contains("rule \"") { return .outcome(.failed) }
            return finding(.runFailed, error.description)
        }
        var printed = result.failures.map(\.description) + result.log
        printed.append("\((scenario.end - scenario.start).hours) h simulated")
        let logged = nonFiniteUserLogs(result)
        for line in printed {
            if let token = nonFiniteToken(in: withoutUserLogs(line, logged), notIn: input.text + (input.sideFile?.text ?? "")) {
                return finding(.nonFinite, "a printed line says \"\(token)\": \(line)")
            }
        }
        guard withReports else { return .outcome(result.passed ? .passed : .failed) }
        let reports: [(name: String, text: String)]
        do { reports = try ReportWriter.renderWithPage(result) } catch {
            return finding(.reportFailed, error.description)
        }
        for report in reports {
            if let token = nonFiniteToken(in: withoutUserLogs(report.text, logged), notIn: input.text + (input.sideFile?.text ?? "")) {
                return finding(.nonFinite, "\(report.name) says \"\(token)\": \(firstLine(containing: token, in: report.text))")
            }
        }
        if input.index % typedSeamsEvery == 0, let difference = await typedDifference(scenario, options, printed: printed, reports: reports) {
            return finding(.seamsDiffer, difference)
        }
        return .outcome(result.passed ? .passed : .failed)
    }

    /// Every how many inputs the run is repeated with typed seams and compared.
    static let typedSeamsEvery = 4

    /// What the run with typed seams printed or reported differently from `printed` and `reports`; `nil` when
    /// nothing differs.
    static func typedDifference(_ scenario: Scenario, _ options: World.Options, printed: [String],
                                        reports: [(name: String, text: String)]) async -> String? {
        var typed = options
        typed.seams = .typed
        typed.progress = nil
        let result: ScenarioResult
        do { result = try await ScenarioRunner.run(scenario, options: typed) } catch {
            return "with typed seams the run stopped: \(error.description)"
        }
        var again = result.failures.map(\.description) + result.log
        again.append("\((scenario.end - scenario.start).hours) h simulated")
        if let line = zip(printed, again).first(where: { $0.0 != $0.1 }) ?? (printed.count == again.count ? nil : ("(\(printed.count) lines)", "(\(again.count) lines)")) {
            return "with typed seams a printed line differs: \"\(line.1)\" instead of \"\(line.0)\""
        }
        guard let typedReports = try? ReportWriter.renderWithPage(result) else { return "with typed seams the reports could not be built" }
        if let report = zip(reports, typedReports).first(where: { $0.0.name != $0.1.name || $0.0.text != $0.1.text }) {
            return "with typed seams \(report.1.name) differs from \(report.0.name) with bytes"
        }
        return reports.count == typedReports.count ? nil : "with typed seams \(typedReports.count) reports instead of \(reports.count)"
    }

    /// The rules' log lines (`INFO [logger] message`: `logInfo`, `console.*`, `log(name)`) and error lines (`error: …`,
    /// which quote the value a script gave back) that hold a non-finite word. A value the user's code makes itself —
    /// JavaScript's `NaN` from `fn * 'text'` or `Infinity` from `x / 0`, as GraalJS makes them too — is the user's
    /// text, not a number the twin made. So is an update's or command's value in which such a word stands among other
    /// text (`10:00NaN10:20`, JavaScript's `+ ', closed at '` joined to a time; a String Item takes it as openHAB
    /// does); a value that is a non-finite number alone (`NaN`, `-Infinity °C`) stays a finding (openHAB refuses it).
    static func nonFiniteUserLogs(_ result: ScenarioResult) -> [String] {
        var messages: [String] = []
        for run in result.ruleRunRecords {
            for effect in run.effects where !nonFiniteWords(in: effect).isEmpty {
                let logged = effect.firstIndex(of: "[").map { ["TRACE ", "DEBUG ", "INFO ", "WARN ", "ERROR "].contains(String(effect[..<$0])) } ?? false
                let text: String
                if logged || effect.hasPrefix("error: ") {
                    text = effect
                } else if let value = userTextValue(effect) {
                    text = value
                } else {
                    continue
                }
                // As printed, and as the report page shows it (HTML-escaped).
                for text in [text, HTMLPage.escape(text)] where !messages.contains(text) { messages.append(text) }
            }
        }
        return messages
    }

    /// The value of an update (`Item := value`) or command (`Item ← value`) effect when a non-finite word stands in
    /// it among other text; `nil` when the value is such a word alone, with an optional sign and unit.
    static func userTextValue(_ effect: String) -> String? {
        guard let arrow = effect.range(of: " := ") ?? effect.range(of: " ← ") else { return nil }
        let value = String(effect[arrow.upperBound...])
        let words = value.split(separator: " ", omittingEmptySubsequences: true)
        let number = words.first.map { $0.hasPrefix("-") || $0.hasPrefix("+") ? String($0.dropFirst()) : String($0) } ?? ""
        let alone = words.count <= 2 && ["nan", "inf", "infinity"].contains(number.lowercased())
        return alone ? nil : value
    }

    /// `text` with each of `messages` removed (the text as is when there are none, the usual case).
    static func withoutUserLogs(_ text: String, _ messages: [String]) -> String {
        messages.reduce(text) { $0.replacingOccurrences(of: $1, with: "") }
    }

    /// The first word of `text` that is `nan`, `inf` or `infinity` (any case; `-nan` too) and does not
    /// occur as a word in `input` (the input may name a city "NaN"; only values the program made count).
    static func nonFiniteToken(in text: String, notIn input: String) -> String? {
        let found = nonFiniteWords(in: text)
        guard !found.isEmpty else { return nil }
        let allowed = Set(nonFiniteWords(in: input).map { $0.lowercased() })
        return found.first { !allowed.contains($0.lowercased()) }
    }

    /// The words `nan`, `inf`, `infinity` in `text` (runs of ASCII letters; any byte ≥ 0x80 counts as a
    /// letter, so `Infinité` is no match), as written, in order. One pass over the UTF-8 bytes.
    private static func nonFiniteWords(in text: String) -> [String] {
        var result: [String] = []
        var run: [UInt8] = []
        var length = 0
        func flush() {
            if length == 3 || length == 8 {
                let word = String(decoding: run, as: UTF8.self)
                if ["nan", "inf", "infinity"].contains(word.lowercased()) { result.append(word) }
            }
            run.removeAll(keepingCapacity: true)
            length = 0
        }
        for byte in text.utf8 {
            let folded = byte | 0x20
            if (folded >= UInt8(ascii: "a") && folded <= UInt8(ascii: "z")) || byte >= 0x80 {
                length += 1
                if length <= 8 { run.append(byte) }
            } else if length > 0 {
                flush()
            }
        }
        if length > 0 { flush() }
        return result
    }

    private static func firstLine(containing token: String, in text: String) -> Substring {
        text.split(separator: "\n").first { $0.contains(token) } ?? ""
    }
}
