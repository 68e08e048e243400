import Foundation
import ScenarioFormat
import Scenarios
import Serve
import Simulation
import Twin

/// `rental-twin fuzz --target http`: mutated HTTP requests and WebSocket frames (``ServeFuzzer``) thrown at an
/// in-process `serve` of the corpus's scenario 07 on a loopback port, with a manual clock. After every input
/// `GET /twin/clock` must still answer 200; an input that is neither answered nor closed, or after which the
/// server no longer answers, is a finding, saved as `http-<n>.bin` (the bytes sent) to replay with
/// `rental-twin serve Scenarios/07-device-offline-mid-stay.json --clock manual --port 8080` and
/// `nc 127.0.0.1 8080 < http-<n>.bin`. Input n of a seed is always the same bytes (the port is written as 8080).
enum HTTPFuzzCommand {
    /// The scenario the inputs are written for (their Item names are its Items).
    static let scenarioName = "07-device-offline-mid-stay.json"

    static func run(corpus: String, seed: UInt64, inputs: Int, seconds: Int?, outDirectory: String) async -> RentalTwinCommand.Outcome {
        var outcome = RentalTwinCommand.Outcome()
        let file = "\(corpus)/\(scenarioName)"
        let server: TwinServer
        do {
            server = try await TwinServer(scenario: try ScenarioDecoder.load(path: file),
                                          configuration: TwinServer.Configuration(host: "127.0.0.1", port: 0, clock: .manual, adminToken: "oh.rentaltwin.fuzz"))
            try server.start()
        } catch {
            outcome.standardError = "fuzz --target http serves \(file), which could not be started: \(error)\n"
            outcome.exitCode = .invalidInput
            return outcome
        }
        let port = server.port
        let began = ContinuousClock.now  // wall-clock: only printed
        // wall-clock: the fuzzer's client side, with wall-clock answer timeouts; it only talks to the server over loopback
        let report = try? await server.serving {
            // ServeFuzzer blocks on sockets: a thread of its own, never the cooperative pool.
            await withCheckedContinuation { continuation in
                Thread.detachNewThread {
                    continuation.resume(returning: ServeFuzzer.run(ServeFuzzer.Options(port: port, seed: seed, count: inputs, stopAfter: seconds.map { .seconds($0) })))
                }
            }
        }.value
        guard let report else {
            outcome.standardError = "fuzz --target http: the server ended before the inputs were sent.\n"
            outcome.exitCode = .failure
            return outcome
        }
        let seconds = Double(began.duration(to: .now).components.seconds) + Double(began.duration(to: .now).components.attoseconds) / 1e18
        var lines = ["fuzz: http, seed \(seed), \(report.inputs) inputs against serve \(file) in \(String(format: "%.1f", seconds)) s "
                     + "(\(Int(Double(report.inputs) / max(seconds, 1e-9))) inputs/s)",
                     "answers: " + report.statuses.sorted { $0.key < $1.key }.map { "\($0.value)×\($0.key)" }.joined(separator: ", ")
                        + ", \(report.closedWithoutStatus) closed without a status"]
        if report.findings.isEmpty {
            lines.append("findings: none")
        } else {
            lines.append("findings: \(report.findings.count)")
            try? FileManager.default.createDirectory(atPath: outDirectory, withIntermediateDirectories: true)
            for finding in report.findings {
                // The bytes as a client on port 8080 would send them, so that a replay against `--port 8080` is the same input.
                let bytes = ServeFuzzer.inputs(seed: seed, count: finding.index + 1, port: 8080)[finding.index]
                let path = "\(outDirectory)/http-\(finding.index).bin"
                let saved = FileManager.default.createFile(atPath: path, contents: Data(bytes))
                lines.append("  #\(finding.index): \(finding.problem)" + (saved ? " → \(path)" : " (could not be saved to \(path))"))
            }
            lines.append("Replay one with: rental-twin serve \(file) --clock manual --port 8080, then nc 127.0.0.1 8080 < \(outDirectory)/http-<n>.bin")
            outcome.exitCode = .failure
        }
        outcome.standardOutput = lines.joined(separator: "\n") + "\n"
        return outcome
    }
}
