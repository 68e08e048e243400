@testable import ScenarioFormat
@testable import Scenarios
import Simulation
import SmartHome
import Testing
@_spi(TwinParts) import Twin

/// A closed world is freed: `suite`, the fuzzer and a server build many worlds in one process.
@Suite("World lifetime")
struct WorldLifetimeTests {
    @Test(arguments: ["Scenarios/10-portfolio-month.json", "Scenarios/14-ui-rules-cooling-when-occupied.json",
                      "Scenarios/04-back-to-back-smart-preheat.json"])
    func aClosedWorldIsFreed(path: String) async throws {
        weak var kernel: SimulationKernel?
        weak var runtime: OpenHABRuntime?
        weak var world: World?
        do {
            let scenario = try ScenarioDecoder.load(path: path)
            let built = try await World.build(scenario, options: World.Options(recordTimeseries: .minutes(15)))
            try await built.kernel.run(until: scenario.start + .hours(30))
            await built.close()
            kernel = built.kernel
            runtime = built.runtime
            world = built
        }
        #expect(world == nil, "the world is still referenced")
        #expect(runtime == nil, "the openHAB runtime is still referenced")
        #expect(kernel == nil, "the kernel is still referenced")
    }
}
