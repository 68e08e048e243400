import Foundation

// The entry point: parse, run off the main actor (RentalTwinCommand.main is @concurrent),
// print, exit with the contract's status.

/// Rewrites one progress line on stderr: `[done/total] file`, cleared when the suite is done.
/// A progress line that cannot be written is dropped; the outcome's own output reports the failure.
@Sendable func showProgress(done: Int, total: Int, file: String) {
    let line = done < total ? "\r\u{1B}[2K[\(done)/\(total)] \(file)" : "\r\u{1B}[2K"
    _ = StandardStreams.write(line, to: STDERR_FILENO)
}

let closedStreams = StandardStreams.prepare()
// A progress line for `suite` only on a terminal (stderr is a TTY and CI is not set); never in CI logs.
let onTerminal = isatty(STDERR_FILENO) == 1 && ProcessInfo.processInfo.environment["CI"] == nil
let outcome = await RentalTwinCommand.main(Array(CommandLine.arguments.dropFirst()),
                                           progress: onTerminal ? showProgress : nil)
exit(StandardStreams.deliver(standardOutput: outcome.standardOutput, standardError: outcome.standardError,
                             exitCode: outcome.exitCode.rawValue, closed: closedStreams))
