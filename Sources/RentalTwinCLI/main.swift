import Foundation
import ScenarioFormat
import Scenarios
import Synchronization
import Twin

// The entry point: parse, run off the main actor (RentalTwinCommand.main is @concurrent),
// print, exit with the contract's status. Ctrl-C cancels the work: runs stop at the next
// simulated day (or within a few thousand events), write nothing, and the exit status is 130.

/// Rewrites one progress line on stderr: `[done/total] file`, cleared when the suite is done.
/// A progress line that cannot be written is dropped; the outcome's own output reports the failure.
@Sendable func showProgress(done: Int, total: Int, file: String) {
    let line = done < total ? "\r\u{1B}[2K[\(done)/\(total)] \(file)" : "\r\u{1B}[2K"
    _ = StandardStreams.write(line, to: STDERR_FILENO)
}

/// The wall-clock moment a run's progress line was last drawn (none yet: the run started `runStarted`).
let runStarted = ContinuousClock.now  // wall-clock: paces the terminal progress line only
let lastRunProgress = Mutex<ContinuousClock.Instant?>(nil)  // wall-clock: when the progress line was last drawn (terminal pacing only)

/// Rewrites one progress line on stderr for a long `run`: the share simulated and the local time reached,
/// first after a second and then at most four times a second; cleared at the end.
@Sendable func showRunProgress(fractionDone: Double, reached: String) {
    let now = ContinuousClock.now  // wall-clock: paces the terminal progress line only
    let draw = lastRunProgress.withLock { last -> Bool in
        guard fractionDone >= 1 || now - (last ?? runStarted) >= (last == nil ? .seconds(1) : .milliseconds(250)) else { return false }
        last = now
        return true
    }
    guard draw else { return }
    let line = fractionDone < 1 ? "\r\u{1B}[2K\(Int(fractionDone * 100)) % simulated, at \(reached) (Ctrl-C stops)" : "\r\u{1B}[2K"
    _ = StandardStreams.write(line, to: STDERR_FILENO)
}

let closedStreams = StandardStreams.prepare()
// Progress lines only on a terminal (stderr is a TTY and CI is not set); never in CI logs.
let onTerminal = isatty(STDERR_FILENO) == 1 && ProcessInfo.processInfo.environment["CI"] == nil
let arguments = Array(CommandLine.arguments.dropFirst())
let work = Task.detached {  // simulation task: the command runs off the main thread, which waits for signals
    await RentalTwinCommand.main(arguments, progress: onTerminal ? showProgress : nil, runProgress: onTerminal ? showRunProgress : nil)
}
// Signals are handled on a queue of their own: a serial queue may start a thread of its own, whereas
// `.global()` shares the cooperative width (one thread per core) with the simulation tasks, so with
// `suite --jobs 2` on two cores the handler waited until a scenario finished (issue 26).
let signalQueue = DispatchQueue(label: "rental-twin.signals")
/// The last resort behind the loops' own cancellation checks (CancellationCheck): a command that has not
/// ended 0.9 s after the first signal leaves at once with 130, after removing the temporaries of a report
/// write in progress, so nothing is written. `serve` and `fuzz` stop by themselves and print what they
/// have (the result so far, where to continue), so they are not cut short.
let command = arguments.first ?? ""
let lastResort = !["serve", "fuzz"].contains(command)
func cancelWork() {
    if work.isCancelled { return }
    work.cancel()
    guard lastResort else { return }
    signalQueue.asyncAfter(deadline: .now() + .milliseconds(900)) {  // wall-clock: the deadline of a signal's exit
        OutputFiles.removeTemporaries()
        _ = StandardStreams.write("\ninterrupted: \(command) stopped; nothing was written.\n", to: STDERR_FILENO)
        _exit(ExitCode.interrupted.rawValue)
    }
}
signal(SIGINT, SIG_IGN)
let interrupt = DispatchSource.makeSignalSource(signal: SIGINT, queue: signalQueue)
interrupt.setEventHandler {
    if work.isCancelled { _exit(ExitCode.interrupted.rawValue) }  // a second Ctrl-C: leave at once
    cancelWork()
}
interrupt.resume()
// SIGTERM ends the work as Ctrl-C does (serve stops cleanly and prints its result).
signal(SIGTERM, SIG_IGN)
let terminate = DispatchSource.makeSignalSource(signal: SIGTERM, queue: signalQueue)
terminate.setEventHandler { cancelWork() }
terminate.resume()
let outcome = await work.value
interrupt.cancel()
terminate.cancel()
if onTerminal, lastRunProgress.withLock({ $0 != nil }) { _ = StandardStreams.write("\r\u{1B}[2K", to: STDERR_FILENO) }
var delivered = outcome
if work.isCancelled, outcome.exitCode != .success, !outcome.endsOnInterrupt {
    // Stopped by a signal: what a loop cut short said (a "cancelled" read, a half-checked file) is no finding.
    delivered.exitCode = .interrupted
    if outcome.exitCode != .interrupted {
        delivered.standardOutput = ""
        delivered.standardError = "interrupted: \(command) stopped; nothing was written.\n"
    }
}
exit(StandardStreams.deliver(standardOutput: delivered.standardOutput, standardError: delivered.standardError,
                             exitCode: delivered.exitCode.rawValue, closed: closedStreams))
