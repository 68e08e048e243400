/// The exit statuses of the command line (SCENARIO-FORMAT.md's contract).
enum ExitCode: Int32 {
    /// Everything held / passed.
    case success = 0
    /// Some expectation or scenario failed.
    case failure = 1
    /// The command line itself was wrong (unknown command or flag, missing argument).
    case usage = 64
    /// A scenario file is invalid.
    case invalidInput = 65
    /// A tool the scenario needs is missing on this machine (Node.js for JavaScript rules): EX_UNAVAILABLE.
    case unavailable = 69
    /// An output could not be written (a report, the JUnit file, standard output or error): EX_IOERR.
    case ioError = 74
    /// The run was interrupted (Ctrl-C, SIGINT) before it finished; nothing was written.
    case interrupted = 130
}
