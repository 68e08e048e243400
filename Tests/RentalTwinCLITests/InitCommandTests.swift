import Foundation
@testable import RentalTwinCLI
import ScenarioFormat
import Testing

/// `rental-twin init --openhab DIR`: a scenario from the semantic model of a conf directory, which validates and runs.
@Suite("init")
struct InitCommandTests {
    @Test func theSemanticModelBecomesListingsDevicesAndBindings() async throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("init-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: root) }
        try FileManager.default.createDirectory(atPath: "\(root)/conf/items", withIntermediateDirectories: true)
        let items = """
            Group gFlat "Flat" ["Apartment"]
            Group gThermostat "Thermostat" (gFlat) ["Thermostat"]
            Number:Temperature Living_Setpoint "Setpoint" (gThermostat) ["Setpoint", "Temperature"]
            Number:Temperature Living_Temp "Temperature" (gThermostat) ["Measurement", "Temperature"]
            String Living_Mode "Mode" (gThermostat) ["Control"]
            Switch Kettle "Kettle" (gFlat) ["PowerOutlet"]
            """
        _ = FileManager.default.createFile(atPath: "\(root)/conf/items/home.items", contents: Data(items.utf8))
        let out = "\(root)/home.json"
        let outcome = await RentalTwinCommand.main(["init", "--openhab", "\(root)/conf", "--out", out])
        #expect(outcome.exitCode == .success, "\(outcome.standardError)")
        #expect(outcome.standardOutput.contains("bound Living_Setpoint → flat/heating/setpoint"))
        #expect(outcome.standardOutput.contains("bound Kettle → flat/plug/switch"))
        #expect(outcome.standardOutput.contains("virtual Living_Mode"))
        let scenario = try ScenarioDecoder.load(path: out)
        #expect(scenario.openhabConf?.hasSuffix("/conf") == true)
        #expect(scenario.listings.map(\.id) == ["flat"] && scenario.listings[0].devices.map(\.id) == ["heating", "plug"])
        #expect(Set(scenario.itemBindings.map(\.item)) == ["Living_Setpoint", "Living_Temp", "Kettle"])
        let run = await RentalTwinCommand.main(["run", out])
        #expect(run.exitCode == .success, "\(run.standardOutput)\(run.standardError)")
        let missing = await RentalTwinCommand.main(["init"])
        #expect(missing.exitCode == .usage)
    }
}
