import Foundation
import SocketTestSupport
import Testing

/// `suite --jobs 2` stops on SIGINT and SIGTERM between simulated days, as `--jobs 1` and `run` do
/// (issue 26: the signal handler shared the two pool threads with the two running scenarios, so it ran
/// only once one of them had finished).
@Suite("suite interrupted")
struct SuiteInterruptTests {
    /// Two long scenarios, the first shorter: were the signal seen only when a scenario finished, the
    /// first would finish and the message would name the second; seen at once, both stop and the first
    /// in path order is named.
    @Test(arguments: [SIGINT, SIGTERM])
    func bothWorkersStopBetweenDays(signal: Int32) async throws {
        let binary = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("rental-twin")
        try #require(FileManager.default.isExecutableFile(atPath: binary.path), "build the command first: swift build")
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let seed = try String(contentsOf: root.appendingPathComponent("Scenarios/01-winter-weekend.json"), encoding: .utf8)
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("suite-interrupt-\(signal)-\(getpid())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        for (name, end) in [("a-shorter", "2086-01-12T00:00"), ("b-longer", "2120-01-12T00:00")] {
            let text = seed.replacingOccurrences(of: "\"end\": \"2026-01-12T00:00\"", with: "\"end\": \"\(end)\"")
            #expect(text != seed)
            try text.write(to: directory.appendingPathComponent("\(name).json"), atomically: true, encoding: .utf8)
        }
        let process = Process()
        process.executableURL = binary
        process.arguments = ["suite", directory.path, "--jobs", "2"]
        let errors = Pipe()
        process.standardOutput = FileHandle.nullDevice
        process.standardError = errors
        try process.run()
        // The waits block: a thread of their own, not one of the cooperative pool's that other tests share.
        let text = try await blocking {
            // Let both scenarios start: wait until the command has used 0.5 s of CPU time (decoding two files takes
            // milliseconds), so that a machine busy with other tests does not send the signal while it still reads them.
            Self.waitForCPUTime(of: process.processIdentifier, seconds: 0.5, atMost: 20)
            kill(process.processIdentifier, signal)
            let text = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            process.waitUntilExit()
            return text
        }
        #expect(process.terminationStatus == 130)
        #expect(text.contains("interrupted: the suite stopped before \(directory.path)/a-shorter.json finished"), "\(text)")
    }

    /// Waits until process `pid` has used `seconds` of CPU time (user and system, from `/proc/PID/stat`), or
    /// `atMost` seconds of wall time have passed.
    static func waitForCPUTime(of pid: Int32, seconds: Double, atMost: Double) {
        let deadline = ContinuousClock.now + .seconds(atMost)  // wall-clock: a bound on the wait, not a measurement
        while ContinuousClock.now < deadline {  // wall-clock: see above
            if let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
               let close = stat.lastIndex(of: ")") {
                // After the command name: state is field 3; utime and stime are fields 14 and 15, in clock ticks.
                let fields = stat[stat.index(after: close)...].split(separator: " ")
                if fields.count > 12, let user = Double(fields[11]), let system = Double(fields[12]),
                   (user + system) / Double(sysconf(Int32(_SC_CLK_TCK))) >= seconds { return }
            }
            usleep(20_000)
        }
    }
}
