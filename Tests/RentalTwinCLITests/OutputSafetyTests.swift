import Foundation
@testable import RentalTwinCLI
import ScenarioFormat
import Scenarios
import SocketTestSupport
import Testing
import Twin
#if canImport(Glibc)
import Glibc
#endif

/// Output never removes or overwrites what is not its own, never writes outside its directory,
/// is all or nothing, and a stream that cannot take the output is exit 74, not a crash.
@Suite("Output safety", .serialized)
struct OutputSafetyTests {
    let winter = "\(scenariosDirectory)/01-winter-weekend.json"

    /// A directory with a file inside that must survive.
    func guardedDirectory(_ path: URL) throws -> URL {
        try FileManager.default.createDirectory(at: path, withIntermediateDirectories: true)
        let sentinel = path.appendingPathComponent("sentinel.txt")
        try Data("keep me".utf8).write(to: sentinel)
        return sentinel
    }

    @Test func junitNamingADirectoryIsRefusedAndTheDirectoryKept() async throws {
        let dir = try temporaryDirectory()
        let sentinel = try guardedDirectory(dir.appendingPathComponent("out"))
        let outcome = await RentalTwinCommand.main(["suite", scenariosDirectory, "--junit", dir.appendingPathComponent("out").path])
        #expect(outcome.exitCode == .usage)
        #expect(outcome.standardError.contains("is a directory"), "\(outcome.standardError)")
        #expect(outcome.standardOutput.isEmpty)
        #expect(try String(contentsOf: sentinel, encoding: .utf8) == "keep me")
    }

    @Test func aReportPathHeldByADirectoryIsRefusedAndNothingIsWritten() async throws {
        let dir = try temporaryDirectory()
        let sentinel = try guardedDirectory(dir.appendingPathComponent("energy-daily.csv"))
        let outcome = await RentalTwinCommand.main(["run", winter, "--report", dir.path])
        #expect(outcome.exitCode == .ioError)
        #expect(outcome.standardError.contains("energy-daily.csv: it is a directory"), "\(outcome.standardError)")
        #expect(try String(contentsOf: sentinel, encoding: .utf8) == "keep me")
        // All or nothing: no other report landed, and no temporary is left behind.
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path) == ["energy-daily.csv"])
    }

    @Test func aFileWrittenInPiecesIsTheirTextAndAFailingProducerLeavesNothing() throws {
        let dir = try temporaryDirectory()
        let pieces = OutputFiles.Content.pieces { write in for i in 0..<1_000 { write("row \(i)\n") } }
        try OutputFiles.write([(path: dir.appendingPathComponent("a.csv").path, content: .text("whole\n")),
                               (path: dir.appendingPathComponent("b.csv").path, content: pieces)])
        let expected = (0..<1_000).map { "row \($0)\n" }.joined()
        #expect(try String(contentsOf: dir.appendingPathComponent("b.csv"), encoding: .utf8) == expected)
        #expect(try pieces.wholeText() == expected)
        // A producer that fails half-way: neither file of the set lands, no temporary stays.
        let other = try temporaryDirectory()
        let failing = OutputFiles.Content.pieces { write throws(ScenarioError) in
            write("row 0\n")
            throw ScenarioError(.reportFailed, "a report could not be built", file: "b.csv")
        }
        #expect(throws: ScenarioError.self) {
            try OutputFiles.write([(path: other.appendingPathComponent("a.csv").path, content: .text("whole\n")),
                                   (path: other.appendingPathComponent("b.csv").path, content: failing)])
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: other.path).isEmpty)
    }

    @Test func reportDirectoryNamingAFileIsAUsageError() async throws {
        let dir = try temporaryDirectory()
        let file = dir.appendingPathComponent("notes.txt")
        try Data("mine".utf8).write(to: file)
        let outcome = await RentalTwinCommand.main(["run", winter, "--report", file.path])
        #expect(outcome.exitCode == .usage)
        #expect(outcome.standardError.contains("is not a directory"))
        #expect(try String(contentsOf: file, encoding: .utf8) == "mine")
    }

    @Test func aJUnitFileThatCannotBeWrittenExits74() async throws {
        let dir = try temporaryDirectory()
        let outcome = await RentalTwinCommand.main(["suite", scenariosDirectory, "--junit", dir.appendingPathComponent("no/such/dir/j.xml").path])
        #expect(outcome.exitCode == .ioError)
        #expect(outcome.standardError.contains("no such file or directory"), "\(outcome.standardError)")
        #expect(outcome.standardOutput.contains("passed, 0 failed"))
    }

    @Test func aSuiteFileNamedDotDotJsonWritesInsideTheReportDirectory() async throws {
        let dir = try temporaryDirectory()
        let suite = dir.appendingPathComponent("suite")
        try FileManager.default.createDirectory(at: suite, withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: winter, toPath: suite.appendingPathComponent("...json").path)
        let reports = dir.appendingPathComponent("a/reports")
        let outcome = await RentalTwinCommand.main(["suite", suite.path, "--report", reports.path])
        #expect(outcome.exitCode == .success, "\(outcome.standardOutput)\(outcome.standardError)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.appendingPathComponent("a").path) == ["reports"])
        #expect(FileManager.default.fileExists(atPath: reports.appendingPathComponent("...json/stays.csv").path))
        #expect(ScenarioCommands.relativeStem("S/x/01.json", below: "S") == "x/01")
        #expect(ScenarioCommands.relativeStem("S/.json", below: "S/") == ".json")
    }

    @Test func aListingNameTooLongForTheFileSystemWritesNoReportAtAll() async throws {
        let dir = try temporaryDirectory()
        let long = String(repeating: "f", count: 300)
        let text = try String(contentsOfFile: winter, encoding: .utf8).replacingOccurrences(of: "flat-1", with: long)
        let file = dir.appendingPathComponent("long.json")
        try Data(text.utf8).write(to: file)
        let reports = dir.appendingPathComponent("r")
        let outcome = await RentalTwinCommand.main(["run", file.path, "--report", reports.path])
        #expect(outcome.exitCode == .ioError, "\(outcome.standardOutput)\(outcome.standardError)")
        #expect(outcome.standardError.contains("file name too long"), "\(outcome.standardError)")
        // The directory the run would have created is not left behind; one that was there stays, untouched.
        #expect(!FileManager.default.fileExists(atPath: reports.path))
        let existing = dir.appendingPathComponent("existing")
        try FileManager.default.createDirectory(at: existing, withIntermediateDirectories: true)
        let again = await RentalTwinCommand.main(["run", file.path, "--report", existing.path])
        #expect(again.exitCode == .ioError, "\(again.standardError)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: existing.path) == [])
    }

    @Test func chartNamesCannotLeaveTheReportDirectory() {
        var taken = Set<String>()
        #expect(ReportWriter.listingFileName("chart", "../../etc/x", "svg", taken: &taken) == "chart-.._.._etc_x.svg")
        #expect(ReportWriter.listingFileName("chart", "a/b", "svg", taken: &taken) == "chart-a_b.svg")
        #expect(ReportWriter.listingFileName("chart", "a_b", "svg", taken: &taken) == "chart-a_b-2.svg")
        #expect(ReportWriter.listingFileName("chart", "Szép lak", "svg", taken: &taken) == "chart-Szép_lak.svg")
    }

    @Test func aFullDeviceIsAnErrorValueNotACrash() throws {
        let descriptor = open("/dev/full", O_WRONLY)
        try #require(descriptor >= 0)
        defer { close(descriptor) }
        #expect(StandardStreams.write("PASS\n", to: descriptor) == .failed("no space left on device"))
    }

    @Test func aReaderThatWentAwayIsABrokenPipe() throws {
        signal(SIGPIPE, SIG_IGN)
        var ends: [Int32] = [0, 0]
        try #require(pipe(&ends) == 0)
        close(ends[0])
        defer { close(ends[1]) }
        #expect(StandardStreams.write("PASS\n", to: ends[1]) == .brokenPipe)
    }

    @Test func aClosedStandardOutputExits74WithAMessage() throws {
        var ends: [Int32] = [0, 0]
        try #require(pipe(&ends) == 0)
        // Standard error goes to the pipe for the duration of the call.
        let saved = dup(STDERR_FILENO)
        dup2(ends[1], STDERR_FILENO)
        let status = StandardStreams.deliver(standardOutput: "PASS\n", standardError: "", exitCode: 0,
                                             closed: StandardStreams.Closed(output: true, error: false))
        dup2(saved, STDERR_FILENO)
        close(saved)
        close(ends[1])
        var buffer = [UInt8](repeating: 0, count: 256)
        let count = read(ends[0], &buffer, buffer.count)
        close(ends[0])
        #expect(status == 74)
        #expect(String(decoding: buffer.prefix(max(0, count)), as: UTF8.self) == "rental-twin: cannot write standard output: it is closed.\n")
    }

    /// The built command itself, as a user runs it: `> /dev/full` and `>&-` give exit 74.
    @Test func theCommandOnAFullDeviceAndAClosedStdoutExits74() async throws {
        let binary = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("rental-twin")
        try #require(FileManager.default.isExecutableFile(atPath: binary.path), "build the command first: swift build")
        for redirect in ["> /dev/full", ">&-"] {
            let shell = Process()
            shell.executableURL = URL(fileURLWithPath: "/bin/sh")
            shell.arguments = ["-c", "\"$0\" run \"$1\" \(redirect) 2>/dev/null", binary.path, winter]
            try shell.run()
            try await blocking { shell.waitUntilExit() }  // a thread of its own, not one of the pool's that other tests share
            #expect(shell.terminationReason == .exit && shell.terminationStatus == 74, "\(redirect): \(shell.terminationStatus)")
        }
    }
}
