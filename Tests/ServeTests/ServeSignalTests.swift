import SocketTestSupport
import Foundation
import Testing

/// Issue 26 item 4: SIGTERM stops the built `serve` while one request is advancing the clock
/// for years; the advance answers where it stopped and the result is printed.
@Suite("serve: SIGTERM mid-advance")
struct ServeSignalTests {
    @Test func sigtermDuringALongAdvanceStopsTheServerAndTheAdvance() async throws {
        let binary = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("rental-twin")
        try #require(FileManager.default.isExecutableFile(atPath: binary.path), "build the command first: swift build")
        // Scenario 07 stretched to five years, so one advance has years to run.
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let original = try String(contentsOf: root.appendingPathComponent("Scenarios/07-device-offline-mid-stay.json"), encoding: .utf8)
        let stretched = original.replacingOccurrences(of: #""end": "2026-11-23T00:00""#, with: #""end": "2031-11-23T00:00""#)
        try #require(stretched != original)
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("serve-sigterm-\(ProcessInfo.processInfo.processIdentifier)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("long.json")
        try stretched.write(to: file, atomically: true, encoding: .utf8)

        let process = Process()
        process.executableURL = binary
        process.arguments = ["serve", file.path, "--clock", "manual", "--port", "0"]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        defer { if process.isRunning { process.interrupt(); kill(process.processIdentifier, SIGKILL) } }
        var text = ""
        while !text.contains("\n") {
            let chunk = output.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            text += String(decoding: chunk, as: UTF8.self)
        }
        let port = try #require(text.firstMatch(of: /on http:\/\/127\.0\.0\.1:(\d+)/).flatMap { Int($0.1) })

        let (advance, elapsed, rest) = try await blocking { () -> (RawResponse?, Duration, String) in
            let advancing = try RawClient(port: port)
            try advancing.send("POST /twin/advance HTTP/1.1\r\nHost: t\r\nContent-Length: 6\r\n\r\nP1800D")
            // Wait until the clock has moved: the advance is under way.
            let watcher = try RawClient(port: port)
            while true {
                try watcher.send("GET /twin/clock HTTP/1.1\r\nHost: t\r\n\r\n")
                guard let clock = try watcher.readResponse() else { throw ClientError(description: "the server closed") }
                if !clock.text.contains(#""local":"2026-11-20T00:00""#) { break }
                usleep(20_000)
            }
            let signalled = ContinuousClock.now  // wall-clock: the figure printed below, not asserted
            kill(process.processIdentifier, SIGTERM)
            let advance = try advancing.readResponse()
            let rest = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            process.waitUntilExit()
            return (advance, ContinuousClock.now - signalled, rest)
        }
        print("serve stopped \(elapsed) after SIGTERM mid-advance (includes printing the result)")
        #expect(process.terminationReason == .exit && process.terminationStatus == 0)
        #expect(advance?.status == 503)
        #expect(advance?.text.contains("serve.advanceInterrupted") == true)
        #expect(rest.contains("PENDING "))
        // The run stopped long before the advance's target (2031-10-25).
        let stoppedYear = rest.firstMatch(of: /stopped at (\d{4})-/).flatMap { Int($0.1) }
        #expect(stoppedYear.map { $0 < 2031 } == true, "\(rest)")
    }
}
