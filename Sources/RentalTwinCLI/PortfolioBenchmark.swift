import Foundation
import ScenarioFormat
import Scenarios
import Twin

/// `rental-twin bench --flats N`: the generated portfolio scenario (N flats with heating, cooling,
/// plug and lock, diurnal weather, a booking calendar at about 70 % occupancy) run through the same
/// decoder, world builder and runner as every scenario file; prints events, wall time, simulated
/// seconds per wall second and peak memory.
///
/// With `--report DIR` the portfolio runs twice in one process: first without reports, then
/// recording the timeseries at the default interval and writing every report into DIR (as
/// `run --report` does), so the two passes give the cost of the reports. Peak memory (VmHWM) only
/// grows, so the figure after the second pass is the peak with reports.
enum PortfolioBenchmark {
    static func run(flats: Int, days: Int, reportDirectory: String? = nil) async throws -> String {
        let clock = ContinuousClock()  // wall-clock: measures the benchmark, never drives the simulation
        let began = clock.now
        let text = PortfolioGenerator.json(flats: flats, days: days, occupancy: 0.7, seed: 1)
        let scenario = try ScenarioDecoder.decode(text, file: "generated-portfolio.json")
        let decoded = clock.now
        let result = try await ScenarioRunner.run(scenario)
        let finished = clock.now
        let wall = Benchmark.seconds(began.duration(to: finished))
        let bookings = scenario.timeline.filter { $0.action.name == "book" }.count
        let nights = result.stays.reduce(0) { $0 + $1.nights }
        let occupancy = Double(nights) / Double(flats * days)
        var lines = [
            "RentalTwin portfolio benchmark — \(scenario.name)",
            "\(scenario.timeline.count) timeline steps (\(bookings) bookings, \(String(format: "%.1f", occupancy * 100)) % of nights booked), \(result.failures.count) failures",
            "decode \(String(format: "%.3f", Benchmark.seconds(began.duration(to: decoded)))) s, run \(String(format: "%.3f", Benchmark.seconds(decoded.duration(to: finished)))) s, total wall \(String(format: "%.3f", wall)) s",
            speed(events: result.kernelEvents, simulated: result.simulatedSeconds, flats: flats, wall: wall),
            "peak memory (VmHWM) \(peakMemoryMB().map { "\($0) MB" } ?? "unknown")",
        ]
        if let reportDirectory {
            let interval = CommandLineSupport.defaultReportInterval
            let start = clock.now
            let reported = try await ScenarioRunner.run(scenario, options: World.Options(recordTimeseries: interval))
            let ran = clock.now
            // The page is built and written apart from the other reports here, so its own cost shows.
            var files = try ReportWriter.write(reported, to: reportDirectory)
            let csvWritten = clock.now
            let page = try ReportPage.html(reported, files: files)
            try OutputFiles.write([(path: "\(reportDirectory)/\(ReportPage.fileName)", text: page)])
            files.append(ReportPage.fileName)
            let written = clock.now
            let runWall = Benchmark.seconds(decoded.duration(to: finished))
            let reportWall = Benchmark.seconds(start.duration(to: written))
            let pageWall = Benchmark.seconds(csvWritten.duration(to: written))
            lines += [
                "with reports (timeseries every \(interval), \(files.count) files written to \(reportDirectory)):",
                "  run \(String(format: "%.3f", Benchmark.seconds(start.duration(to: ran)))) s, render and write \(String(format: "%.3f", Benchmark.seconds(ran.duration(to: written)))) s, total \(String(format: "%.3f", reportWall)) s (+\(String(format: "%.0f", (reportWall / max(runWall, 1e-9) - 1) * 100)) % over the run without reports)",
                "  of which index.html \(String(format: "%.3f", pageWall)) s (\(String(format: "%.1f", Double(page.utf8.count) / 1_000_000)) MB; +\(String(format: "%.1f", pageWall / max(runWall, 1e-9) * 100)) % over the run without reports)",
                "  " + speed(events: reported.kernelEvents, simulated: reported.simulatedSeconds, flats: flats, wall: reportWall),
                "  peak memory (VmHWM) \(peakMemoryMB().map { "\($0) MB" } ?? "unknown")",
            ]
        }
        return lines.joined(separator: "\n") + "\n\n"
    }

    /// `kernel events …: … events/s, … simulated flat-seconds per wall s (… simulated s per wall s)`.
    private static func speed(events: Int, simulated: Double, flats: Int, wall: Double) -> String {
        "kernel events \(events): \(Int(Double(events) / max(wall, 1e-9))) events/s, \(Int(simulated * Double(flats) / max(wall, 1e-9))) simulated flat-seconds per wall s (\(Int(simulated / max(wall, 1e-9))) simulated s per wall s)"
    }

    /// The process's peak resident set size in MB, from /proc/self/status (Linux).
    static func peakMemoryMB() -> Int? {
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
              let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") }),
              let kB = Int(line.split(separator: " ").dropFirst().first ?? "") else { return nil }
        return kB / 1024
    }
}
