import Foundation

// The entry point: parse, run off the main actor (RentalTwinCommand.main is @concurrent),
// print, exit with the contract's status.

/// Rewrites one progress line on stderr: `[done/total] file`, cleared when the suite is done.
@Sendable func showProgress(done: Int, total: Int, file: String) {
    let line = done < total ? "\r\u{1B}[2K[\(done)/\(total)] \(file)" : "\r\u{1B}[2K"
    FileHandle.standardError.write(Data(line.utf8))
}

// A progress line for `suite` only on a terminal (stderr is a TTY and CI is not set); never in CI logs.
let onTerminal = isatty(STDERR_FILENO) == 1 && ProcessInfo.processInfo.environment["CI"] == nil
let outcome = await RentalTwinCommand.main(Array(CommandLine.arguments.dropFirst()),
                                           progress: onTerminal ? showProgress : nil)
FileHandle.standardOutput.write(Data(outcome.standardOutput.utf8))
FileHandle.standardError.write(Data(outcome.standardError.utf8))
exit(outcome.exitCode.rawValue)
