/// The coverage of one rule file over one run or many (``merge(_:)``): each rule as a function with how
/// often it was started, each Rules DSL statement line with how often it ran, each `if`/`switch` branch
/// with how often it was taken. Written as LCOV's tracefile (``lcov(_:)``), as `genhtml` reads it.
public struct RuleFileCoverage: Sendable, Equatable {
    /// A rule: the line it starts on, its name, how often it was started.
    public struct Function: Sendable, Equatable {
        public let line: Int
        public let name: String
        public var count: Int

        /// A rule at `line` named `name`, started `count` times.
        public init(line: Int, name: String, count: Int) {
            self.line = line
            self.name = name
            self.count = count
        }
    }

    /// One way out of an `if` (0 then, 1 else) or `switch` (each case, then none matched) at `line`;
    /// `block` tells two on one line apart (it is the column).
    public struct Branch: Sendable, Equatable {
        public let line: Int
        public let block: Int
        public let branch: Int
        public var count: Int

        /// Branch `branch` of the `if`/`switch` at `line`, column `block`, taken `count` times.
        public init(line: Int, block: Int, branch: Int, count: Int) {
            self.line = line
            self.block = block
            self.branch = branch
            self.count = count
        }
    }

    /// The file as the scenario named it, resolved against the scenario's directory.
    public let file: String
    /// The rules, by line then name.
    public var functions: [Function] = []
    /// Statement lines and their counts.
    public var lines: [Int: Int] = [:]
    /// The branches, by line, block and branch.
    public var branches: [Branch] = []

    public init(file: String) { self.file = file }

    /// Rules never started, in line order.
    public var rulesNeverStarted: [Function] { functions.filter { $0.count == 0 } }

    /// Statement lines that never ran, ascending.
    public var linesNeverRun: [Int] { lines.filter { $0.value == 0 }.keys.sorted() }

    /// Puts functions and branches in their order and keeps each rule once (two scenarios loading one file
    /// list its rules twice before a merge).
    mutating func normalize() {
        var byKey: [String: Function] = [:]
        for f in functions { byKey["\(f.line)\u{0}\(f.name)", default: Function(line: f.line, name: f.name, count: 0)].count += f.count }
        functions = byKey.values.sorted { ($0.line, $0.name) < ($1.line, $1.name) }
        var branchKey: [[Int]: Int] = [:]
        for b in branches { branchKey[[b.line, b.block, b.branch], default: 0] += b.count }
        branches = branchKey.map { Branch(line: $0.key[0], block: $0.key[1], branch: $0.key[2], count: $0.value) }
            .sorted { ($0.line, $0.block, $0.branch) < ($1.line, $1.block, $1.branch) }
    }

    /// The files of many runs as one list: the same file's counts added (by file path, sorted).
    public static func merge(_ runs: [[RuleFileCoverage]]) -> [RuleFileCoverage] {
        var byFile: [String: RuleFileCoverage] = [:]
        for file in runs.joined() {
            var merged = byFile[file.file] ?? RuleFileCoverage(file: file.file)
            merged.functions += file.functions
            merged.branches += file.branches
            for (line, count) in file.lines { merged.lines[line, default: 0] += count }
            byFile[file.file] = merged
        }
        return byFile.keys.sorted().compactMap { key in
            guard var file = byFile[key] else { return nil }
            // Each run lists every rule once; a merge adds the same rule's counts.
            file.normalize()
            return file
        }
    }

    /// LCOV's tracefile (`geninfo(1)`'s format): per file `TN:`, `SF:`, `FN:`/`FNDA:` per rule, `FNF:`/`FNH:`,
    /// `BRDA:` per branch, `BRF:`/`BRH:`, `DA:` per statement line, `LF:`/`LH:`, `end_of_record`.
    public static func lcov(_ files: [RuleFileCoverage]) -> String {
        var text = ""
        for file in files {
            text += "TN:\nSF:\(file.file)\n"
            // A function name ends its record line: keep it on one line and free of the field separator.
            let names = file.functions.map { f in
                String(f.name.map { $0 == "\n" || $0 == "\r" || $0 == "," ? " " : $0 })
            }
            var seen: [String: Int] = [:]
            var unique: [String] = []
            for name in names {
                seen[name, default: 0] += 1
                unique.append(seen[name, default: 1] > 1 ? "\(name) (\(seen[name, default: 1]))" : name)
            }
            for (f, name) in zip(file.functions, unique) { text += "FN:\(f.line),\(name)\n" }
            for (f, name) in zip(file.functions, unique) { text += "FNDA:\(f.count),\(name)\n" }
            text += "FNF:\(file.functions.count)\nFNH:\(file.functions.filter { $0.count > 0 }.count)\n"
            for b in file.branches {
                // `-` for a branch whose line never ran, as geninfo writes it.
                let taken = (file.lines[b.line] ?? 0) == 0 && b.count == 0 ? "-" : "\(b.count)"
                text += "BRDA:\(b.line),\(b.block),\(b.branch),\(taken)\n"
            }
            text += "BRF:\(file.branches.count)\nBRH:\(file.branches.filter { $0.count > 0 }.count)\n"
            for line in file.lines.keys.sorted() { text += "DA:\(line),\(file.lines[line] ?? 0)\n" }
            text += "LF:\(file.lines.count)\nLH:\(file.lines.values.filter { $0 > 0 }.count)\nend_of_record\n"
        }
        return text
    }
}
