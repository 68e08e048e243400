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
            usleep(500_000)  // let both scenarios start (a signal sent earlier must stop them all the same)
            kill(process.processIdentifier, signal)
            let text = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            process.waitUntilExit()
            return text
        }
        #expect(process.terminationStatus == 130)
        #expect(text.contains("interrupted: the suite stopped before \(directory.path)/a-shorter.json finished"), "\(text)")
    }
}
