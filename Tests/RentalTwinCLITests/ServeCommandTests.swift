import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import SocketTestSupport
import Testing
@testable import RentalTwinCLI

@Suite("serve command")
struct ServeCommandTests {
    @Test("usage mistakes exit 64 with a sentence", arguments: [
        (["serve", "x.json", "--clock", "fast"], "--clock is paced or manual, not \"fast\"."),
        (["serve", "x.json", "--speed", "0"], "--speed needs a positive number of virtual seconds per wall second, such as 1 or 60, not \"0\"."),
        (["serve", "x.json", "--clock", "manual", "--speed", "60"],
         "--speed paces the clock; with --clock manual time moves only on POST /twin/advance. Drop one of them."),
        (["serve", "x.json", "--port", "70000"], "--port must be between 0 and 65535, not 70000."),
        (["serve"], nil),
    ])
    func usageMistakes(arguments: [String], message: String?) async {
        let outcome = await RentalTwinCommand.main(arguments)
        #expect(outcome.exitCode == .usage)
        if let message { #expect(outcome.standardError.hasPrefix("error: \(message)\n"), "\(outcome.standardError)") }
    }

    @Test func aMissingScenarioFileExits65() async {
        let outcome = await RentalTwinCommand.main(["serve", "/nonexistent/scenario.json", "--port", "0"])
        #expect(outcome.exitCode == .invalidInput)
    }

    /// The built command as a user runs it: it prints its URLs, answers, and SIGTERM prints the result and exits 0.
    @Test func theBuiltCommandServesAndEndsCleanlyOnSIGTERM() async throws {
        let binary = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("rental-twin")
        try #require(FileManager.default.isExecutableFile(atPath: binary.path), "build the command first: swift build")
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let process = Process()
        process.executableURL = binary
        process.arguments = ["serve", root.appendingPathComponent("Scenarios/07-device-offline-mid-stay.json").path, "--clock", "manual", "--port", "0"]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        // The first line names the URL; read until it is there (blocking reads: a thread of their own, not the pool's).
        let text = try await blocking {
            var text = ""
            while !text.contains("\n") {
                let chunk = output.fileHandleForReading.availableData
                if chunk.isEmpty { break }
                text += String(decoding: chunk, as: UTF8.self)
            }
            return text
        }
        let url = try #require(text.firstMatch(of: /on (http:\/\/127\.0\.0\.1:\d+)/)?.1)
        let (body, _) = try await URLSession.shared.data(from: try #require(URL(string: "\(url)/twin/clock")))
        #expect(String(decoding: body, as: UTF8.self).contains(#""local":"2026-11-20T00:00""#))
        process.terminate()  // SIGTERM
        let rest = try await blocking {
            let rest = output.fileHandleForReading.readDataToEndOfFile()
            process.waitUntilExit()
            return rest
        }
        #expect(process.terminationReason == .exit && process.terminationStatus == 0)
        #expect(String(decoding: rest, as: UTF8.self).contains("PENDING "))
    }
}
