import ScenarioFormat
import Scenarios
import Simulation
import Twin

/// The hand-written command-line parser: `rental-twin COMMAND [ARGS] [--option VALUE]`.
///
/// Small on purpose (the project has no package dependencies). Unknown commands and options
/// get a "did you mean" from the closest known name.
enum ArgumentParser {
    /// What the user asked for.
    enum Invocation: Equatable {
        /// Show help: general (`nil`) or for one command.
        case help(command: String?)
        /// Run a command.
        case command(ParsedCommand)
    }

    /// A command with its positional arguments and option values.
    struct ParsedCommand: Equatable {
        let command: CommandName
        var positionals: [String] = []
        var options: [String: String] = [:]

        /// The command's name as typed (`run`).
        var name: String { command.rawValue }

        /// The value of `option`, if given (`""` for a given flag).
        func value(_ option: CommandSpec.Option) -> String? { options[option.name] }

        /// Whether the flag `option` was given.
        func has(_ option: CommandSpec.Option) -> Bool { options[option.name] != nil }

        /// The integer value of `option`, `fallback` when absent.
        /// - Throws: ``UsageError`` when it is not a non-negative integer.
        func integer(_ option: CommandSpec.Option, default fallback: Int) throws(UsageError) -> Int {
            guard let text = options[option.name] else { return fallback }
            guard let value = Int(text), value >= 0 else {
                throw UsageError("\(option.name) needs a non-negative integer, not \"\(text)\".", command: name)
            }
            return value
        }
    }

    /// A mistake on the command line: a sentence, a hint, and exit status 64.
    struct UsageError: CodedError, Equatable {
        /// The stable code of every command-line mistake.
        enum Code: String, Sendable {
            /// An unknown command or flag, a missing or malformed value (exit 64, EX_USAGE).
            case usage = "usage.invalid"
        }

        /// Always ``Code/usage``.
        var code: Code { .usage }
        let message: String
        let command: String?
        init(_ message: String, command: String?) {
            self.message = message
            self.command = command
        }
    }

    /// Parses the arguments after the program name.
    static func parse(_ arguments: [String]) throws(UsageError) -> Invocation {
        guard let first = arguments.first else { return .help(command: nil) }
        if first == "--help" || first == "-h" || first == "help" {
            let topic = arguments.dropFirst().first
            if let topic, CommandSpec.named(topic) == nil { throw unknownCommand(topic) }
            return .help(command: topic)
        }
        guard let spec = CommandSpec.named(first) else {
            if first.hasPrefix("-") {
                throw UsageError("\"\(first)\" is not a global option; the only one is --help. Put options after the command.", command: nil)
            }
            throw unknownCommand(first)
        }
        var parsed = ParsedCommand(command: spec.name)
        var rest = arguments.dropFirst()[...]
        while let arg = rest.popFirst() {
            if arg == "--help" || arg == "-h" { return .help(command: spec.name.rawValue) }
            if arg == "--" { parsed.positionals.append(contentsOf: rest); break }
            if arg.hasPrefix("-"), arg.count > 1 {
                let (name, inline) = splitInline(arg)
                guard let option = spec.options.first(where: { $0.name == name }) else {
                    let hint = closest(to: name, in: spec.options.map(\.name)).map { " Did you mean \($0)?" } ?? ""
                    throw UsageError("\(spec.name.rawValue) has no option \(name).\(hint)", command: spec.name.rawValue)
                }
                if option.valueName == nil {
                    parsed.options[name] = ""
                } else if let inline {
                    parsed.options[name] = inline
                } else if let value = rest.popFirst(), !value.hasPrefix("--") {
                    parsed.options[name] = value
                } else {
                    throw UsageError("\(name) needs a value: \(name) \(option.valueName ?? "VALUE").", command: spec.name.rawValue)
                }
                continue
            }
            parsed.positionals.append(arg)
        }
        if parsed.positionals.count < spec.minPositionals {
            throw UsageError("\(spec.name.rawValue) needs \(spec.arguments).", command: spec.name.rawValue)
        }
        if let max = spec.maxPositionals, parsed.positionals.count > max {
            let extra = parsed.positionals[max...].joined(separator: " ")
            throw UsageError("\(spec.name.rawValue) takes \(max == 0 ? "no arguments" : spec.arguments), but also got: \(extra).", command: spec.name.rawValue)
        }
        return .command(parsed)
    }

    private static func splitInline(_ arg: String) -> (String, String?) {
        guard let eq = arg.firstIndex(of: "=") else { return (arg, nil) }
        return (String(arg[..<eq]), String(arg[arg.index(after: eq)...]))
    }

    private static func unknownCommand(_ name: String) -> UsageError {
        let hint = closest(to: name, in: CommandSpec.all.map(\.name.rawValue)).map { " Did you mean \"\($0)\"?" } ?? ""
        return UsageError("\"\(name)\" is not a rental-twin command.\(hint) See rental-twin --help.", command: nil)
    }

    /// The candidate nearest to `word` by edit distance, if it is close enough to be a typo.
    static func closest(to word: String, in candidates: [String]) -> String? {
        CommandLineSupport.closest(to: word, in: candidates)
    }
}
