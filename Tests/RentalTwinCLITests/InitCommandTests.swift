import Foundation
@testable import RentalTwinCLI
import Testing

/// `rental-twin init --openhab DIR`, as a user runs it: the scenario it writes validates and runs as written.
@Suite("init --openhab")
struct InitCommandTests {
    /// A conf directory of one flat in openHAB's semantic model: a radiator control and a front-door lock in
    /// an Apartment, a light that is no device of the twin, an MQTT Thing the Items are linked to.
    static func confDirectory() throws -> URL {
        let dir = try temporaryDirectory().appendingPathComponent("conf")
        try FileManager.default.createDirectory(at: dir.appendingPathComponent("items"), withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: dir.appendingPathComponent("things"), withIntermediateDirectories: true)
        try """
            Group    gFlat          "Riverside flat"        <house>        ["Apartment"]
            Group    gLiving        "Living room"           (gFlat)        ["LivingRoom"]
            Group    Living_Radiator "Radiator"             (gLiving)      ["RadiatorControl"]
            Number:Temperature Living_Setpoint "Target [%.1f °C]" (Living_Radiator) ["Setpoint", "Temperature"] { channel="mqtt:topic:broker:trv:target" }
            Number:Temperature Living_Temp     "Room [%.1f °C]"   (Living_Radiator) ["Measurement", "Temperature"] { channel="mqtt:topic:broker:trv:temp" }
            Switch   Living_Heat    "Heating"               (Living_Radiator) ["Switch"]
            String   Living_Mode    "Mode"                  (Living_Radiator) ["Control"]
            Group    Front_Door     "Front door"            (gFlat)        ["Lock"]
            Switch   Front_Door_Lock "Locked"               (Front_Door)   ["Switch"]
            Contact  Front_Door_Contact "Open"              (Front_Door)   ["OpenState"]
            Switch   Living_Lamp    "Lamp"                  (gLiving)      ["Light"]

            """.write(to: dir.appendingPathComponent("items/home.items"), atomically: false, encoding: .utf8)
        try """
            Bridge mqtt:broker:broker "Broker" [ host="192.0.2.10" ] {
                Thing topic trv "Radiator valve" {
                    Channels:
                        Type number : target "Target" [ stateTopic="trv/target", commandTopic="trv/target/set" ]
                        Type number : temp "Temperature" [ stateTopic="trv/temp" ]
                }
            }

            """.write(to: dir.appendingPathComponent("things/mqtt.things"), atomically: false, encoding: .utf8)
        return dir
    }

    @Test func theScenarioItWritesValidatesAndRunsAsWritten() async throws {
        let conf = try Self.confDirectory()
        let file = conf.deletingLastPathComponent().appendingPathComponent("home.json").path
        let made = await RentalTwinCommand.main(["init", "--openhab", conf.path, "--out", file])
        #expect(made.exitCode == .success, "\(made.standardError)")
        let notes = made.standardError
        #expect(notes.contains("mapped Living_Radiator [RadiatorControl] in gFlat [Apartment] → gflat/living-radiator (heating)"), "\(notes)")
        #expect(notes.contains("bound Living_Setpoint (Number:Temperature, Setpoint, Temperature) → gflat/living-radiator/setpoint"), "\(notes)")
        #expect(notes.contains("bound Front_Door_Contact (Contact, OpenState) → gflat/front-door/door"), "\(notes)")
        #expect(notes.contains("left virtual Living_Mode (String, Control)"), "\(notes)")
        #expect(notes.contains("11 Item(s) in 1 .items file(s): 5 bound to the twin's devices, 6 virtual"), "\(notes)")
        let text = try String(contentsOfFile: file, encoding: .utf8)
        #expect(text.contains("\"openhabConf\": \"conf\""))
        #expect(text.contains("\"Front_Door_Lock\": \"gflat/front-door/lock\""))
        let validated = await RentalTwinCommand.main(["validate", file])
        #expect(validated.exitCode == .success, "\(validated.standardOutput)\(validated.standardError)")
        let ran = await RentalTwinCommand.main(["run", file])
        #expect(ran.exitCode == .success, "\(ran.standardOutput)\(ran.standardError)")
        #expect(ran.standardOutput.contains("168 h simulated"))
        // A second init to the same file is refused: init never overwrites.
        let again = await RentalTwinCommand.main(["init", "--openhab", conf.path, "--out", file])
        #expect(again.exitCode == .ioError)
    }

    @Test func theExampleConfDirectoryInitsToAScenarioThatRuns() async throws {
        let file = try temporaryDirectory().appendingPathComponent("conf-home.json").path
        let made = await RentalTwinCommand.main(["init", "--openhab", "\(scenariosDirectory)/conf-home", "--out", file])
        #expect(made.exitCode == .success, "\(made.standardError)")
        let ran = await RentalTwinCommand.main(["run", file])
        #expect(ran.exitCode == .success, "\(ran.standardOutput)\(ran.standardError)")
    }

    @Test func withoutADirectoryItIsAUsageError() async {
        let outcome = await RentalTwinCommand.main(["init"])
        #expect(outcome.exitCode == .usage)
        #expect(outcome.standardError.contains("init needs --openhab DIR"))
        let missing = await RentalTwinCommand.main(["init", "--openhab", "/nonexistent/conf"])
        #expect(missing.exitCode == .usage)
        #expect(missing.standardError.contains("/nonexistent/conf is not a directory"))
    }
}
