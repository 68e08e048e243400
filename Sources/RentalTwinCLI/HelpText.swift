/// The text `--help` prints: sentences and examples, not enum cases.
enum HelpText {
    /// The overview: what the tool is and every command.
    static var overview: String {
        var lines = [
            "rental-twin — a deterministic digital twin of a smart short-term rental.",
            "",
            "Runs openHAB-style Things, Items and Links, devices with room physics, a fake",
            "OpenWeatherMap feed and the booking services in virtual time: the same scenario",
            "and seed always give byte-identical results.",
            "",
            "USAGE: rental-twin COMMAND [ARGUMENTS] [OPTIONS]",
            "",
            "COMMANDS:",
        ]
        for spec in CommandSpec.all {
            let name = "  \(spec.name) \(spec.arguments)".padding(toLength: 22, withPad: " ", startingAt: 0)
            lines.append("\(name)\(spec.abstract)")
        }
        lines += [
            "",
            "EXAMPLES:",
            "  rental-twin demo --days 3",
            "  rental-twin suite Scenarios --junit junit.xml",
            "  rental-twin run Scenarios/winter-weekend.json --report Reports",
            "",
            "EXIT STATUS: 0 success, 1 failed expectations, 64 bad usage, 65 invalid scenario.",
            "",
            "See rental-twin help COMMAND for a command's options.",
        ]
        return lines.joined(separator: "\n")
    }

    /// Help for one command.
    static func help(for spec: CommandSpec) -> String {
        var lines = ["\(spec.abstract)", "", "USAGE: rental-twin \(spec.name)\(spec.arguments.isEmpty ? "" : " \(spec.arguments)")\(spec.options.isEmpty ? "" : " [OPTIONS]")"]
        if !spec.options.isEmpty {
            lines += ["", "OPTIONS:"]
            for option in spec.options {
                let left = "  \(option.name)\(option.valueName.map { " \($0)" } ?? "")".padding(toLength: 20, withPad: " ", startingAt: 0)
                lines.append("\(left)\(option.help)")
            }
        }
        lines += ["", spec.discussion]
        return lines.joined(separator: "\n")
    }
}

import Foundation
