#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import Synchronization

/// One `node` child process running the twin's JavaScript host, spoken to with length-prefixed JSON
/// (4 bytes big-endian length, then UTF-8 JSON) over its stdin and stdout, one request and one answer at a time.
///
/// The child never outlives its owner: ``terminate()`` kills and reaps it (a world calls it when it closes),
/// and the child itself exits when its stdin reaches end of file (its parent died). A dead child, a broken
/// pipe, a malformed or missing answer become ``JavaScriptError`` `rules.jsChild`, never a hang or a crash.
public final class NodeChild: Sendable {
    /// The child's process id.
    public let pid: Int32
    private let toChild: Int32
    private let fromChild: Int32
    private let errors: Int32
    private let io = Mutex(IOState())

    /// What the child wrote and the twin has not taken yet (`bytes[start..<end]`).
    struct InputBuffer {
        var bytes = [UInt8](repeating: 0, count: 65_536)
        var start = 0
        var end = 0
    }

    struct IOState {
        var closed = false
        var input = InputBuffer()
        var spin = SpinPolicy()
        /// The messages written to the child so far.
        var sent = 0
    }

    /// The heap cap passed to V8 (`--max-old-space-size`), MB.
    public static let heapLimitMB = 256
    /// How long the twin waits for an answer beyond the child's own run budget before it calls the child
    /// dead (the child's `vm` timeout ends runaway scripts first).
    public static let answerGraceSeconds = 10.0
    /// The largest answer the twin reads (64 MiB).
    public static let maxMessageBytes = 64 << 20

    private static let ignoreBrokenPipes: Void = { _ = signal(SIGPIPE, SIG_IGN) }()

    /// Starts `node` on `script` (the host runtime) with the heap capped.
    /// - Parameter zone: the child's `TZ` (the scenario's zone), so `Date`'s local-time methods read the
    ///   scenario's wall time on every machine; the locale is fixed (`LC_ALL=C`), `NODE_OPTIONS` and
    ///   `NODE_EXTRA_CA_CERTS` dropped.
    /// - Throws: ``JavaScriptError`` `rules.jsChild` when the process cannot be started.
    /// - Parameter label: an extra argument the runtime ignores, so `ps` shows whose child it is (the scenario's folder).
    public init(node: NodeExecutable, script: String, zone: String = "UTC", label: String = "") throws(JavaScriptError) {
        _ = Self.ignoreBrokenPipes
        var input: [Int32] = [-1, -1], output: [Int32] = [-1, -1], stderrPipe: [Int32] = [-1, -1]
        guard pipe(&input) == 0, pipe(&output) == 0, pipe(&stderrPipe) == 0 else {
            throw JavaScriptError(.child, "could not make pipes for the Node.js child: \(String(cString: strerror(errno))).")
        }
        // Close-on-exec, so that other children (another world's) do not hold these pipes open.
        for fd in input + output + stderrPipe { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, input[0], 0)
        posix_spawn_file_actions_adddup2(&actions, output[1], 1)
        posix_spawn_file_actions_adddup2(&actions, stderrPipe[1], 2)
        let arguments = [node.path, "--max-old-space-size=\(Self.heapLimitMB)", "--stack-size=984", "--no-warnings", script] + (label.isEmpty ? [] : [label])
        var argv: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) } + [nil]
        defer { for p in argv { free(p) } }
        var environment = ProcessInfo.processInfo.environment
        environment["NODE_OPTIONS"] = nil
        // The child makes no TLS connection; with extra CA certificates named, Node parses its whole root store
        // before the first line of the runtime (60 of 90 ms of CPU time of a start, measured).
        environment["NODE_EXTRA_CA_CERTS"] = nil
        environment["TZ"] = zone
        environment["LC_ALL"] = "C"
        environment["LANG"] = "C"
        var envp: [UnsafeMutablePointer<CChar>?] = environment.keys.sorted().map { strdup("\($0)=\(environment[$0] ?? "")") } + [nil]
        defer { for p in envp { free(p) } }
        var child: pid_t = 0
        let status = posix_spawn(&child, node.path, &actions, nil, &argv, &envp)
        close(input[0]); close(output[1]); close(stderrPipe[1])
        guard status == 0 else {
            close(input[1]); close(output[0]); close(stderrPipe[0])
            throw JavaScriptError(.child, "could not start \(node.path): \(String(cString: strerror(status))).", hint: NodeExecutable.installHint)
        }
        pid = child
        toChild = input[1]
        fromChild = output[0]
        errors = stderrPipe[0]
        _ = fcntl(errors, F_SETFL, fcntl(errors, F_GETFL) | O_NONBLOCK)
        // Non-blocking, so that a spin can read without sleeping; a wait that sleeps does so in `poll`.
        _ = fcntl(fromChild, F_SETFL, fcntl(fromChild, F_GETFL) | O_NONBLOCK)
    }

    deinit { terminate() }

    /// Sends one message (a request, or the answer to a question the child asked) and waits for the child's
    /// next message: one `write` of the whole frame, then (while spins pay, ``SpinPolicy``) non-blocking reads
    /// for up to 50 µs, then `poll` and `read`s into a buffer that keeps what arrived beyond the message.
    /// - Parameters:
    ///   - budgetSeconds: the run's wall-clock budget.
    ///   - childEnforces: whether the child bounds the work itself (a load, under the `vm` timeout): then the
    ///     twin waits the budget plus ``answerGraceSeconds``; otherwise (a rule run or timer) the twin waits the
    ///     budget and then kills the child.
    /// - Returns: the answer's JSON bytes.
    /// - Throws: ``JavaScriptError`` `rules.jsBudget` past the budget, `rules.jsChild` when the child is gone,
    ///   the pipe broke or the answer is malformed.
    public func exchange(_ message: [UInt8], budgetSeconds: Double, childEnforces: Bool = true) throws(JavaScriptError) -> [UInt8] {
        try io.withLock { state throws(JavaScriptError) -> [UInt8] in
            guard !state.closed else { throw JavaScriptError(.child, "the Node.js child was already stopped.") }
            var frame = [UInt8]()
            frame.reserveCapacity(4 + message.count)
            let n = UInt32(message.count)
            frame.append(contentsOf: [UInt8(n >> 24), UInt8((n >> 16) & 0xFF), UInt8((n >> 8) & 0xFF), UInt8(n & 0xFF)])
            frame.append(contentsOf: message)
            try writeAll(frame)
            state.sent += 1
            if state.input.start == state.input.end, state.spin.shouldSpin(message: state.sent) {
                state.spin.record(answered: try spinRead(&state.input))
            }
            return try readFrame(&state.input, budgetSeconds: budgetSeconds, childEnforces: childEnforces)
        }
    }

    /// Reads one length-prefixed message within the deadline.
    private func readFrame(_ input: inout InputBuffer, budgetSeconds: Double, childEnforces: Bool) throws(JavaScriptError) -> [UInt8] {
        // wall-clock: a child that neither answers nor dies must not hang the run
        let wait = childEnforces ? budgetSeconds + Self.answerGraceSeconds : budgetSeconds
        let deadline = ContinuousClock.now + .milliseconds(Int64(wait * 1000))  // wall-clock: the answer's deadline
        let budget = childEnforces ? nil : budgetSeconds
        try fill(&input, to: 4, deadline: deadline, budget: budget)
        let header = input.bytes[input.start..<input.start + 4]
        let length = Int(header[header.startIndex]) << 24 | Int(header[header.startIndex + 1]) << 16
            | Int(header[header.startIndex + 2]) << 8 | Int(header[header.startIndex + 3])
        guard length <= Self.maxMessageBytes else {
            throw JavaScriptError(.child, "the Node.js child announced an answer of \(length) bytes, over the limit of \(Self.maxMessageBytes).")
        }
        try fill(&input, to: 4 + length, deadline: deadline, budget: budget)
        let message = Array(input.bytes[input.start + 4..<input.start + 4 + length])
        input.start += 4 + length
        if input.start == input.end { input.start = 0; input.end = 0 }
        return message
    }

    /// Kills and reaps the child (idempotent).
    public func terminate() {
        let wasOpen = io.withLock { state -> Bool in
            defer { state.closed = true }
            return !state.closed
        }
        guard wasOpen else { return }
        close(toChild)
        kill(pid, SIGKILL)
        var status: Int32 = 0
        while waitpid(pid, &status, 0) == -1, errno == EINTR {}
        close(fromChild)
        close(errors)
    }

    /// Whether the child process is still alive (not reaped, not a zombie).
    public var isRunning: Bool {
        io.withLock { state in
            guard !state.closed else { return false }
            var status: Int32 = 0
            return waitpid(pid, &status, WNOHANG) == 0
        }
    }

    private func writeAll(_ bytes: [UInt8]) throws(JavaScriptError) {
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeBytes { raw -> Int in
                guard let base = raw.baseAddress else { return 0 }
                return write(toChild, base + offset, bytes.count - offset)
            }
            if written < 0 {
                if errno == EINTR || errno == EAGAIN { continue }
                throw childGone("writing to it failed (\(String(cString: strerror(errno))))")
            }
            offset += written
        }
    }

    /// Reads the pipe without sleeping for up to ``SpinPolicy/limitNanos`` (yielding the core between reads, so
    /// that under load whatever is runnable runs instead), while `input` is empty.
    /// - Returns: whether the answer's first bytes arrived.
    private func spinRead(_ input: inout InputBuffer) throws(JavaScriptError) -> Bool {
        let start = Self.monotonicNanos()  // wall-clock: bounds the spin
        while true {
            let end = input.end
            let got = input.bytes.withUnsafeMutableBytes { raw -> Int in
                guard let base = raw.baseAddress else { return 0 }
                return read(fromChild, base + end, raw.count - end)
            }
            if got > 0 { input.end += got; return true }
            if got == 0 { throw childGone("it exited") }
            guard errno == EAGAIN || errno == EINTR else { throw childGone("reading from it failed (\(String(cString: strerror(errno))))") }
            if Self.monotonicNanos() - start >= SpinPolicy.limitNanos { return false }  // wall-clock: bounds the spin
            sched_yield()
        }
    }

    /// Reads until `input` holds `count` bytes, or `deadline` passes.
    private func fill(_ input: inout InputBuffer, to count: Int, deadline: ContinuousClock.Instant, budget: Double?) throws(JavaScriptError) {  // wall-clock: waits until `deadline`
        guard input.end - input.start < count else { return }
        if input.bytes.count - input.start < count {
            // Move what is left to the front, and grow the buffer for a message larger than it.
            let left = input.end - input.start, start = input.start
            if start > 0 {
                input.bytes.withUnsafeMutableBytes { raw in
                    guard let base = raw.baseAddress else { return }
                    memmove(base, base + start, left)
                }
                input.start = 0
                input.end = left
            }
            if input.bytes.count < count { input.bytes += [UInt8](repeating: 0, count: count - input.bytes.count) }
        }
        let wanted = input.start + count
        while input.end < wanted {
            let left = deadline - ContinuousClock.now  // wall-clock: the answer's deadline
            let leftMs = max(0, Int32(clamping: left.components.seconds * 1000 + left.components.attoseconds / 1_000_000_000_000_000))
            // Waits in slices of 100 ms, so that a cancelled run (Ctrl-C, SIGTERM) stops waiting for a child in a loop.
            if Task.isCancelled {
                kill(pid, SIGKILL)
                throw JavaScriptError(.child, "the run was interrupted while the Node.js child (pid \(pid)) was running a script; the child was stopped.")
            }
            var pfd = pollfd(fd: fromChild, events: Int16(POLLIN), revents: 0)
            let ready = poll(&pfd, 1, min(leftMs, 100))
            if ready < 0 {
                if errno == EINTR { continue }
                throw childGone("waiting for it failed (\(String(cString: strerror(errno))))")
            }
            if ready == 0 {
                if leftMs > 100 { continue }
                if let budget {
                    kill(pid, SIGKILL)
                    throw JavaScriptError(.budget, "it ran longer than \(Int(budget * 1000)) ms of wall time (a loop that never ends?); it was ended and its Node.js child stopped.")
                }
                throw childGone("it did not answer within \(Int(Self.answerGraceSeconds)) s beyond its run budget")
            }
            let end = input.end
            let got = input.bytes.withUnsafeMutableBytes { raw -> Int in
                guard let base = raw.baseAddress else { return 0 }
                return read(fromChild, base + end, raw.count - end)
            }
            if got < 0 {
                if errno == EINTR || errno == EAGAIN { continue }
                throw childGone("reading from it failed (\(String(cString: strerror(errno))))")
            }
            if got == 0 { throw childGone(input.end == input.start && count == 4 ? "it exited" : "it exited in the middle of an answer") }
            input.end += got
        }
    }

    /// The error for a child that is gone, with what it wrote on stderr (its last lines).
    private func childGone(_ why: String) -> JavaScriptError {
        var bytes = [UInt8](repeating: 0, count: 16_384)
        let got = bytes.withUnsafeMutableBytes { raw -> Int in
            guard let base = raw.baseAddress else { return 0 }
            return read(errors, base, 16_384)
        }
        let said = got > 0 ? String(decoding: bytes[0..<got], as: UTF8.self) : ""
        // V8's out-of-memory report is a stack dump; say what it means instead.
        let outOfMemory = said.contains("heap out of memory") || said.contains("Reached heap limit")
        let text = outOfMemory ? "it ran out of memory (its heap is capped at \(Self.heapLimitMB) MB)"
            : said.split(separator: "\n").suffix(3).joined(separator: " | ")
        var status: Int32 = 0
        let exited = waitpid(pid, &status, WNOHANG) == pid
        let how = !exited ? "" : (status & 0x7F) == 0 ? " (exit status \((status >> 8) & 0xFF))" : " (killed by signal \(status & 0x7F))"
        return JavaScriptError(.child, "the Node.js child (pid \(pid)) failed: \(why)\(how)\(text.isEmpty ? "" : "; it said: \(text)").",
                               hint: "a child killed from outside or out of memory (its heap is capped at \(Self.heapLimitMB) MB) ends the run.")
    }
}
