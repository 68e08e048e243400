import Foundation
import Scenarios

/// `rental-twin bench --flats N`: the generated portfolio scenario (N flats with heating, cooling,
/// plug and lock, diurnal weather, a booking calendar at about 70 % occupancy) run through the same
/// decoder, world builder and runner as every scenario file; prints events, wall time, simulated
/// seconds per wall second and peak memory.
enum PortfolioBenchmark {
    static func run(flats: Int, days: Int) async throws -> String {
        let clock = ContinuousClock()  // wall-clock: measures the benchmark, never drives the simulation
        let began = clock.now
        let text = PortfolioGenerator.json(flats: flats, days: days, occupancy: 0.7, seed: 1)
        let scenario = try ScenarioDecoder.decode(text, file: "generated-portfolio.json")
        let decoded = clock.now
        let result = try await ScenarioRunner.run(scenario)
        let finished = clock.now
        func seconds(_ d: Duration) -> Double { Double(d.components.seconds) + Double(d.components.attoseconds) * 1e-18 }
        let wall = seconds(began.duration(to: finished))
        let simulated = result.simulatedSeconds
        let bookings = scenario.timeline.filter { $0.action.name == "book" }.count
        let nights = result.stays.reduce(0) { $0 + $1.nights }
        let occupancy = Double(nights) / Double(flats * days)
        return """
            RentalTwin portfolio benchmark — \(scenario.name)
            \(scenario.timeline.count) timeline steps (\(bookings) bookings, \(String(format: "%.1f", occupancy * 100)) % of nights booked), \(result.failures.count) failures
            decode \(String(format: "%.3f", seconds(began.duration(to: decoded)))) s, run \(String(format: "%.3f", seconds(decoded.duration(to: finished)))) s, total wall \(String(format: "%.3f", wall)) s
            kernel events \(result.kernelEvents): \(Int(Double(result.kernelEvents) / max(wall, 1e-9))) events/s, \(Int(simulated * Double(flats) / max(wall, 1e-9))) simulated flat-seconds per wall s (\(Int(simulated / max(wall, 1e-9))) simulated s per wall s)
            peak memory (VmHWM) \(peakMemoryMB().map { "\($0) MB" } ?? "unknown")

            """
    }

    /// The process's peak resident set size in MB, from /proc/self/status (Linux).
    static func peakMemoryMB() -> Int? {
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
              let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") }),
              let kB = Int(line.split(separator: " ").dropFirst().first ?? "") else { return nil }
        return kB / 1024
    }
}
