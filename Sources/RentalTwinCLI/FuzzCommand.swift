import Foundation
import ScenarioFormat
import Scenarios
import Synchronization
import Twin

/// `rental-twin fuzz`: a mutation fuzzer over the example scenarios (the engine is
/// ``ScenarioFuzzer`` in the Scenarios module); this file reads the options, keeps a wall-clock
/// watchdog for an input stuck inside one event, and prints the summary.
enum FuzzCommand {
    static func run(_ command: ArgumentParser.ParsedCommand) async throws(ArgumentParser.UsageError) -> RentalTwinCommand.Outcome {
        var outcome = RentalTwinCommand.Outcome()
        let seconds = try command.integer(.seconds, default: 60)
        let inputs = command.value(.inputs) == nil ? nil : try command.integer(.inputs, default: 0)
        let first = try command.integer(.from, default: 0)
        guard first >= 0 else { throw ArgumentParser.UsageError("--from must be 0 or more.", command: "fuzz") }
        let budget = try command.integer(.events, default: 100_000)
        guard budget >= 1 else { throw ArgumentParser.UsageError("--events must be at least 1.", command: "fuzz") }
        // http and partitions count inputs; --seconds, when given, stops them sooner.
        let givenSeconds = command.value(.seconds) == nil ? nil : seconds
        let seedText = command.value(.seed) ?? "1"
        guard let seed = UInt64(seedText) else {
            throw ArgumentParser.UsageError("--seed needs a whole number from 0 to 18446744073709551615, not \"\(seedText)\".", command: "fuzz")
        }
        let corpusDirectory = command.value(.corpus) ?? "Scenarios"
        let out = command.value(.out) ?? ".build/fuzz-findings"
        var targets = FuzzTarget.all
        if var list = command.value(.target) {
            let names = list.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
            // `http` is not a file kind: requests and frames against an in-process serve, on its own.
            if names.contains("http") {
                guard names == ["http"] else {
                    throw ArgumentParser.UsageError("--target http runs on its own (it fuzzes a server, not files); give it alone, and the file kinds in another run.", command: "fuzz")
                }
                return await HTTPFuzzCommand.run(corpus: corpusDirectory, seed: seed, inputs: inputs ?? 2_000, seconds: givenSeconds, outDirectory: out)
            }
            // `partitions`: partition directories and their merge, from a generated portfolio, on its own.
            if names.contains("partitions") {
                guard names == ["partitions"] else {
                    throw ArgumentParser.UsageError("--target partitions runs on its own (it fuzzes partition directories and merge, not scenario files); give it alone, and the file kinds in another run.", command: "fuzz")
                }
                return await PartitionFuzzCommand.run(seed: seed, inputs: inputs ?? 300, seconds: givenSeconds, first: first, outDirectory: out)
            }
            list = names.joined(separator: ",")
            switch FuzzTarget.parse(list) {
            case .success(let chosen): targets = chosen
            case .failure(let unknown):
                throw ArgumentParser.UsageError("--target \"\(unknown.name)\" is not a fuzz target; the targets are "
                                                + "\(FuzzTarget.all.map(\.name).joined(separator: ", ")) (several: comma-separated).", command: "fuzz")
            }
        }
        let fuzzer: ScenarioFuzzer
        do {
            fuzzer = try ScenarioFuzzer(corpus: try ScenarioFuzzer.corpus(in: corpusDirectory), seed: seed, targets: targets)
        } catch {
            throw ArgumentParser.UsageError("\(error.message) fuzz needs a directory of *.json seed scenarios (--corpus DIR).", command: "fuzz")
        }
        let watchdog = Watchdog(fuzzer: fuzzer, outDirectory: out, limitSeconds: 120)
        let milestones = Milestones(first: first, every: 10_000)
        let summary = await FuzzCampaign(fuzzer: fuzzer, eventsPerListingDay: budget, outDirectory: out)
            .run(seconds: Double(seconds), maxInputs: inputs, firstInput: first) { index in
                watchdog.started(index)
                milestones.reached(index)
            }
        watchdog.stop()
        outcome.standardOutput = summary.report(seed: seed, outDirectory: out)
        if summary.findings > 0 {
            outcome.standardOutput += "Replay one with: rental-twin run \(out)/<file>.json\n"
            outcome.exitCode = .failure
        }
        if summary.interrupted { outcome.exitCode = .interrupted }
        return outcome
    }

    /// Writes `fuzz: input #n started after T s` to stderr at every `every`-th input, so a long
    /// campaign shows how far it got and where a later part can continue (`--from`).
    final class Milestones: Sendable {
        private let next: Mutex<Int>
        private let every: Int
        private let began = ContinuousClock.now  // wall-clock: only printed, never decides what runs

        init(first: Int, every: Int) {
            self.every = every
            next = Mutex(first + every)
        }

        @Sendable func reached(_ index: Int) {
            let due = next.withLock { next in
                guard index >= next else { return false }
                next = index + every
                return true
            }
            guard due else { return }
            let seconds = began.duration(to: .now).components.seconds
            FileHandle.standardError.write(Data("fuzz: input #\(index) started after \(seconds) s\n".utf8))
        }
    }

    /// Ends the process when one input makes no progress for `limitSeconds` of wall time — no simulated
    /// day finished (a loop inside a single event, which no event budget sees) or its world never built —
    /// after saving the input as `stuck-<n>.json`. A long run that keeps finishing days is not stuck.
    final class Watchdog: Sendable {
        private struct State {
            var index = -1
            var since = ContinuousClock.now  // wall-clock: the watchdog measures how long an input makes no progress
            var stopped = false
        }
        private let state = Mutex(State())

        /// Watches the inputs `started` names; when one makes no progress for `limitSeconds` of wall time,
        /// `stuck` saves it and says so (a line for stderr), and the process ends with exit 1.
        init(limitSeconds: Int, stuck: @escaping @Sendable (_ index: Int) -> String) {
            Thread.detachNewThread { [self] in  // wall-clock: a thread of its own, outside the simulation
                while true {
                    sleep(1)
                    let (index, late, stopped) = self.state.withLock { s in
                        (s.index, s.since.duration(to: .now) > .seconds(limitSeconds), s.stopped)
                    }
                    if stopped { return }
                    guard late, index >= 0 else { continue }
                    FileHandle.standardError.write(Data((stuck(index) + "\n").utf8))
                    exit(ExitCode.failure.rawValue)
                }
            }
        }

        /// The scenario fuzzer's watchdog: a stuck input is saved as `stuck-<n>.json`.
        convenience init(fuzzer: ScenarioFuzzer, outDirectory: String, limitSeconds: Int) {
            self.init(limitSeconds: limitSeconds) { index in
                let path = "\(outDirectory)/stuck-\(index).json"
                FuzzCampaign.save(fuzzer.input(index), as: "stuck-\(index)", in: outDirectory)
                return "fuzz: input #\(index) made no progress for \(limitSeconds) s of wall time: no simulated day finished, or its world was not built (a hang the event budget cannot see); saved as \(path)"
            }
        }

        /// Input `index` starts now, or finished a simulated day now.
        @Sendable func started(_ index: Int) { state.withLock { $0.index = index; $0.since = .now } }

        func stop() { state.withLock { $0.stopped = true } }
    }
}
