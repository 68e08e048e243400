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
            let name = "  \(spec.name.rawValue) \(spec.arguments)".padding(toLength: 22, withPad: " ", startingAt: 0)
            lines.append("\(name)\(spec.abstract)")
        }
        lines += [
            "",
            "EXAMPLES:",
            "  rental-twin suite Scenarios --jobs 2 --junit junit.xml",
            "  rental-twin run Scenarios/01-winter-weekend.json --report out --log",
            "  rental-twin validate Scenarios/*.json",
            "  rental-twin demo --days 3",
            "",
            "The scenario file format is described in the README (a complete annotated example)",
            "and in Docs/SCENARIO-FORMAT.md.",
            "",
            "EXIT STATUS: 0 success, 1 failed expectations, 64 bad usage, 65 invalid scenario,",
            "74 an output (report, JUnit file, standard output) could not be written.",
            "",
            "See rental-twin help COMMAND for a command's options.",
        ]
        return lines.joined(separator: "\n")
    }

    /// Help for one command.
    static func help(for spec: CommandSpec) -> String {
        var lines = ["\(spec.abstract)", "", "USAGE: rental-twin \(spec.name.rawValue)\(spec.arguments.isEmpty ? "" : " \(spec.arguments)")\(spec.options.isEmpty ? "" : " [OPTIONS]")"]
        if !spec.options.isEmpty {
            lines += ["", "OPTIONS:"]
            let labels = spec.options.map { "  \($0.name)\($0.valueName.map { " \($0)" } ?? "")" }
            let width = max(20, (labels.map(\.count).max() ?? 0) + 2)
            for (label, option) in zip(labels, spec.options) {
                lines.append(label.padding(toLength: width, withPad: " ", startingAt: 0) + option.help)
            }
        }
        lines += ["", spec.discussion]
        return lines.joined(separator: "\n")
    }
}

import Foundation
