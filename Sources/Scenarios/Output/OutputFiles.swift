#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import ScenarioFormat
import Simulation
import Synchronization
import Twin

/// The C library's `write(2)`, named apart from ``OutputFiles/write(_:)``.
private func systemWrite(_ descriptor: Int32, _ bytes: UnsafeRawPointer, _ count: Int) -> Int {
    write(descriptor, bytes, count)
}

/// Writes a set of output files all or nothing, and never removes anything that is not its own.
///
/// Every file is first written to a temporary name of its own (created with `O_EXCL`, so nothing
/// that exists is ever opened or truncated) in the target's directory; only when every temporary
/// is complete are they renamed into place. A path where something other than a regular file
/// stands (a directory, a link, a device) is refused before anything is written. On any failure
/// the temporaries this call created are removed and nothing else is touched.
public enum OutputFiles {
    /// What a file holds: a text, or a producer that hands its text out in pieces, in order (so a
    /// long file need never be whole in memory). A producer that throws leaves nothing written.
    public enum Content {
        case text(String)
        case pieces((_ write: (String) -> Void) throws(ScenarioError) -> Void)

        /// The whole text (a producer's pieces joined).
        public func wholeText() throws(ScenarioError) -> String {
            switch self {
            case .text(let text): return text
            case .pieces(let produce):
                var text = ""
                try produce { text += $0 }
                return text
            }
        }
    }

    /// Writes every `(path, text)` pair, or none of them.
    /// - Throws: ``ScenarioError`` `scenario.writeFailed` naming the path and the system's reason.
    public static func write(_ files: [(path: String, text: String)]) throws(ScenarioError) {
        try write(files.map { (path: $0.path, content: Content.text($0.text)) })
    }

    /// Writes every `(path, content)` pair, or none of them.
    /// - Throws: ``ScenarioError`` `scenario.writeFailed` naming the path and the system's reason, or
    ///   what a producer threw.
    public static func write(_ files: [(path: String, content: Content)]) throws(ScenarioError) {
        for file in files {
            try refuseForeign(file.path)
            try refuseOverlongName(file.path)
        }
        var written: [(temporary: String, path: String)] = []
        defer { openTemporaries.withLock { open in for entry in written { open.remove(entry.temporary) } } }
        func discard() { for entry in written { unlink(entry.temporary) } }
        for (index, file) in files.enumerated() {
            do throws(ScenarioError) {
                if Task.isCancelled { throw cancelled(file.path) }
                written.append((try writeTemporary(file.content, beside: file.path, index: index), file.path))
            } catch {
                discard()
                throw error
            }
        }
        if Task.isCancelled {
            discard()
            throw cancelled(files.last?.path ?? "")
        }
        for (index, entry) in written.enumerated() where rename(entry.temporary, entry.path) != 0 {
            let reason = TextSpool.systemReason()
            for later in written[index...] { unlink(later.temporary) }
            throw ScenarioError(.writeFailed, "cannot write \(entry.path): \(reason).", file: entry.path)
        }
    }

    /// The temporaries written and not yet renamed or removed, for ``removeTemporaries()``.
    private static let openTemporaries = Mutex<Set<String>>([])

    /// Removes every temporary file a write in progress has made: what the command line's last-resort exit
    /// on a signal calls, so that even a write cut short leaves nothing behind.
    public static func removeTemporaries() {
        for path in openTemporaries.withLock({ $0 }) { unlink(path) }
    }

    /// The error of a write stopped by Ctrl-C or SIGTERM: nothing of it stays.
    private static func cancelled(_ path: String) -> ScenarioError {
        ScenarioError(.cancelled, "the reports were not written: the command was cancelled (Ctrl-C) while writing \(path); nothing was written.", file: path)
    }

    /// Throws when something that is not a regular file stands at `path`.
    /// - Throws: ``ScenarioError`` `scenario.writeFailed`.
    public static func refuseForeign(_ path: String) throws(ScenarioError) {
        guard let kind = kind(of: path), kind != .regular else { return }
        throw ScenarioError(.writeFailed, "cannot write \(path): it is \(kind.phrase), not a file this command wrote; "
                            + "nothing was removed. Give another path, or move it away.", file: path)
    }

    /// Throws when the file name of `path` is longer than its directory's file system allows, so
    /// that such a name fails before anything is written rather than at its rename.
    /// - Throws: ``ScenarioError`` `scenario.writeFailed`.
    static func refuseOverlongName(_ path: String) throws(ScenarioError) {
        let slash = path.lastIndex(of: "/")
        let directory = slash.map { $0 == path.startIndex ? "/" : String(path[..<$0]) } ?? "."
        let name = slash.map { String(path[path.index(after: $0)...]) } ?? path
        let limit = pathconf(directory, Int32(_PC_NAME_MAX))
        guard limit > 0, name.utf8.count > limit else { return }
        throw ScenarioError(.writeFailed, "cannot write \(path): file name too long (\(name.utf8.count) bytes; this file system "
                            + "allows \(limit)). Nothing was written; use shorter ids.", file: path)
    }

    /// What stands at a path (without following a final symbolic link).
    public enum Kind: Sendable, Equatable {
        case regular, directory, symbolicLink, other

        /// "a directory", "a symbolic link", …
        public var phrase: String {
            switch self {
            case .regular: "a regular file"
            case .directory: "a directory"
            case .symbolicLink: "a symbolic link"
            case .other: "a special file"
            }
        }
    }

    /// What stands at `path`, or `nil` when nothing does.
    public static func kind(of path: String) -> Kind? {
        var info = stat()
        guard lstat(path, &info) == 0 else { return nil }
        switch info.st_mode & S_IFMT {
        case S_IFREG: return .regular
        case S_IFDIR: return .directory
        case S_IFLNK: return .symbolicLink
        default: return .other
        }
    }

    /// Writes `text` to a fresh temporary file in the directory of `path` and returns its path.
    private static func writeTemporary(_ content: Content, beside path: String, index: Int) throws(ScenarioError) -> String {
        let slash = path.lastIndex(of: "/")
        let directory = slash.map { String(path[...$0]) } ?? ""
        var attempt = 0
        while true {
            // Short on purpose: a target name near the file system's limit must not fail only because of its temporary.
            let temporary = "\(directory).rt\(getpid())-\(index)-\(attempt).partial"
            let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
            if descriptor >= 0 { openTemporaries.withLock { _ = $0.insert(temporary) } }
            if descriptor < 0 {
                if errno == EEXIST, attempt < 100 { attempt += 1; continue }
                throw ScenarioError(.writeFailed, "cannot write \(path): \(TextSpool.systemReason()).", file: path)
            }
            var failure: String?
            var cancellation = CancellationCheck(every: 256)
            var wasCancelled = false
            func put(_ text: String) {
                guard failure == nil, !wasCancelled else { return }
                if cancellation.isDue() { wasCancelled = true; return }
                var text = text
                text.withUTF8 { buffer in
                    var offset = 0
                    while offset < buffer.count {
                        guard let base = buffer.baseAddress else { return }
                        let count = systemWrite(descriptor, base + offset, buffer.count - offset)
                        if count < 0 {
                            if errno == EINTR { continue }
                            failure = TextSpool.systemReason()
                            return
                        }
                        offset += count
                    }
                }
            }
            do throws(ScenarioError) {
                switch content {
                case .text(let text): put(text)
                case .pieces(let produce): try produce(put)
                }
            } catch {
                close(descriptor)
                unlink(temporary)
                openTemporaries.withLock { _ = $0.remove(temporary) }
                throw error
            }
            if close(descriptor) != 0, failure == nil { failure = TextSpool.systemReason() }
            if wasCancelled || failure != nil {
                unlink(temporary)
                openTemporaries.withLock { _ = $0.remove(temporary) }
            }
            if wasCancelled { throw cancelled(path) }
            if let failure {
                throw ScenarioError(.writeFailed, "cannot write \(path): \(failure).", file: path)
            }
            return temporary
        }
    }
}
