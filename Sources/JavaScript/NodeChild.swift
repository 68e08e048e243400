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
    private let io = Mutex<Bool>(false)  // closed

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
    ///   scenario's wall time on every machine; the locale is fixed (`LC_ALL=C`) and `NODE_OPTIONS` dropped.
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
    }

    deinit { terminate() }

    /// Sends one request and waits for its answer.
    /// - Parameters:
    ///   - budgetSeconds: the run's wall-clock budget.
    ///   - childEnforces: whether the child bounds the work itself (a load, under the `vm` timeout): then the
    ///     twin waits the budget plus ``answerGraceSeconds``; otherwise (a rule run or timer) the twin waits the
    ///     budget and then kills the child.
    /// - Returns: the answer's JSON bytes.
    /// - Throws: ``JavaScriptError`` `rules.jsBudget` past the budget, `rules.jsChild` when the child is gone,
    ///   the pipe broke or the answer is malformed.
    public func exchange(_ request: [UInt8], budgetSeconds: Double, childEnforces: Bool = true) throws(JavaScriptError) -> [UInt8] {
        try io.withLock { closed throws(JavaScriptError) -> [UInt8] in
            guard !closed else { throw JavaScriptError(.child, "the Node.js child was already stopped.") }
            var frame = [UInt8](repeating: 0, count: 4)
            let n = UInt32(request.count)
            frame[0] = UInt8(n >> 24); frame[1] = UInt8((n >> 16) & 0xFF); frame[2] = UInt8((n >> 8) & 0xFF); frame[3] = UInt8(n & 0xFF)
            frame += request
            try writeAll(frame)
            return try readFrame(budgetSeconds: budgetSeconds, childEnforces: childEnforces)
        }
    }

    /// Answers a question the child asked in the middle of a request and waits for its next message (another
    /// question or the request's answer), as ``exchange(_:budgetSeconds:childEnforces:)`` does.
    public func reply(_ answer: [UInt8], budgetSeconds: Double, childEnforces: Bool = true) throws(JavaScriptError) -> [UInt8] {
        try io.withLock { closed throws(JavaScriptError) -> [UInt8] in
            guard !closed else { throw JavaScriptError(.child, "the Node.js child was already stopped.") }
            var frame = [UInt8](repeating: 0, count: 4)
            let n = UInt32(answer.count)
            frame[0] = UInt8(n >> 24); frame[1] = UInt8((n >> 16) & 0xFF); frame[2] = UInt8((n >> 8) & 0xFF); frame[3] = UInt8(n & 0xFF)
            frame += answer
            try writeAll(frame)
            return try readFrame(budgetSeconds: budgetSeconds, childEnforces: childEnforces)
        }
    }

    /// Reads one length-prefixed message within the deadline.
    private func readFrame(budgetSeconds: Double, childEnforces: Bool) throws(JavaScriptError) -> [UInt8] {
        do {
            // wall-clock: a child that neither answers nor dies must not hang the run
            let wait = childEnforces ? budgetSeconds + Self.answerGraceSeconds : budgetSeconds
            let deadline = ContinuousClock.now + .milliseconds(Int64(wait * 1000))  // wall-clock: the answer's deadline
            let header = try readExactly(4, deadline: deadline, budget: childEnforces ? nil : budgetSeconds)
            let length = Int(header[0]) << 24 | Int(header[1]) << 16 | Int(header[2]) << 8 | Int(header[3])
            guard length <= Self.maxMessageBytes else {
                throw JavaScriptError(.child, "the Node.js child announced an answer of \(length) bytes, over the limit of \(Self.maxMessageBytes).")
            }
            return try readExactly(length, deadline: deadline, budget: childEnforces ? nil : budgetSeconds)
        }
    }

    /// Kills and reaps the child (idempotent).
    public func terminate() {
        let wasOpen = io.withLock { closed -> Bool in
            defer { closed = true }
            return !closed
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
        io.withLock { closed in
            guard !closed else { return false }
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

    private func readExactly(_ count: Int, deadline: ContinuousClock.Instant, budget: Double?) throws(JavaScriptError) -> [UInt8] {  // wall-clock: waits until `deadline`
        var buffer = [UInt8](repeating: 0, count: count)
        var offset = 0
        while offset < count {
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
            let got = buffer.withUnsafeMutableBytes { raw -> Int in
                guard let base = raw.baseAddress else { return 0 }
                return read(fromChild, base + offset, count - offset)
            }
            if got < 0 {
                if errno == EINTR || errno == EAGAIN { continue }
                throw childGone("reading from it failed (\(String(cString: strerror(errno))))")
            }
            if got == 0 { throw childGone(offset == 0 && count == 4 ? "it exited" : "it exited in the middle of an answer") }
            offset += got
        }
        return buffer
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
