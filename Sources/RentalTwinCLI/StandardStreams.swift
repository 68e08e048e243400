#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Standard output and error as file descriptors, with every failure turned into a value: a full
/// device or a closed stream becomes a message and exit 74, a reader that went away (`| head -1`)
/// ends the process quietly by SIGPIPE, as other command-line tools do. Nothing here traps.
enum StandardStreams {
    /// How a write ended.
    enum WriteResult: Equatable {
        case written
        /// The reader closed the pipe.
        case brokenPipe
        /// Anything else; the system's reason ("no space left on device").
        case failed(String)
    }

    /// Which standard descriptors were closed when the process started.
    struct Closed {
        var output = false
        var error = false
    }

    /// Makes write errors come back as `EPIPE` instead of a signal, and puts `/dev/null` on any of
    /// descriptors 0, 1 and 2 that the caller closed (`>&-`), so that no file this process opens
    /// later (a database, a report) can land on them and receive the output.
    /// - Returns: which of standard output and error were closed (their output cannot be delivered).
    static func prepare() -> Closed {
        signal(SIGPIPE, SIG_IGN)
        var closed = Closed()
        for descriptor: Int32 in 0...2 where fcntl(descriptor, F_GETFD) == -1 && errno == EBADF {
            if descriptor == 1 { closed.output = true }
            if descriptor == 2 { closed.error = true }
            // open returns the lowest free descriptor, which is this one: 0, 1, 2 are filled in order.
            _ = open("/dev/null", descriptor == 0 ? O_RDONLY : O_WRONLY)
        }
        return closed
    }

    /// Writes all of `text` to `descriptor`, retrying partial and interrupted writes.
    static func write(_ text: String, to descriptor: Int32) -> WriteResult {
        var bytes = Array(text.utf8)
        return bytes.withUnsafeMutableBytes { buffer -> WriteResult in
            guard let base = buffer.baseAddress else { return .written }
            var offset = 0
            while offset < buffer.count {
                let count = systemWrite(descriptor, base + offset, buffer.count - offset)
                if count >= 0 { offset += count; continue }
                switch errno {
                case EINTR: continue
                case EPIPE: return .brokenPipe
                default:
                    let reason = String(cString: strerror(errno))
                    return .failed(reason.prefix(1).lowercased() + reason.dropFirst())
                }
            }
            return .written
        }
    }

    /// Prints a command's outcome and returns the process's exit status: the outcome's own, or 74
    /// when standard output or error could not take it (with a message on standard error where it
    /// still works). A broken pipe ends the process by SIGPIPE, silently.
    static func deliver(standardOutput: String, standardError: String, exitCode: Int32, closed: Closed) -> Int32 {
        var status = exitCode
        var complaint = ""
        if !standardOutput.isEmpty {
            if closed.output {
                complaint = "rental-twin: cannot write standard output: it is closed.\n"
            } else {
                switch write(standardOutput, to: STDOUT_FILENO) {
                case .written: break
                case .brokenPipe: endByBrokenPipe()
                case .failed(let reason): complaint = "rental-twin: cannot write standard output: \(reason).\n"
                }
            }
        }
        if !complaint.isEmpty { status = ExitCode.ioError.rawValue }
        let errorText = standardError + complaint
        if !errorText.isEmpty {
            if closed.error { return ExitCode.ioError.rawValue }
            switch write(errorText, to: STDERR_FILENO) {
            case .written: break
            case .brokenPipe: endByBrokenPipe()
            case .failed: status = ExitCode.ioError.rawValue
            }
        }
        return status
    }

    /// Ends the process as the default SIGPIPE action would: no message, status 128 + 13 in a shell.
    static func endByBrokenPipe() -> Never {
        signal(SIGPIPE, SIG_DFL)
        raise(SIGPIPE)
        exit(128 + SIGPIPE)
    }
}

/// The C library's `write(2)`, named apart from ``StandardStreams/write(_:to:)``.
private func systemWrite(_ descriptor: Int32, _ bytes: UnsafeRawPointer, _ count: Int) -> Int {
    write(descriptor, bytes, count)
}
