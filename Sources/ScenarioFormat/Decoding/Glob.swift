/// Shell-style globs of `exclude`, matched against a path relative to the conf directory: `*` any run of
/// characters but `/`, `**` any run including `/`, `?` one character but `/`.
enum Glob {
    static func matches(_ pattern: String, _ path: String) -> Bool {
        let p = Array(pattern.unicodeScalars), s = Array(path.unicodeScalars)
        // Iterative matching with one backtrack point per star kind, linear-ish in practice and never exponential:
        // memoised over (pattern index, path index).
        var memo = [Int: Bool]()
        func match(_ i: Int, _ j: Int) -> Bool {
            let key = i * (s.count + 1) + j
            if let known = memo[key] { return known }
            var result: Bool
            if i == p.count {
                result = j == s.count
            } else if p[i] == "*" {
                let double = i + 1 < p.count && p[i + 1] == "*"
                let next = double ? i + 2 : i + 1
                var k = j
                result = false
                while true {
                    if match(next, k) { result = true; break }
                    if k == s.count || (!double && s[k] == "/") { break }
                    k += 1
                }
            } else if j < s.count, p[i] == s[j] || (p[i] == "?" && s[j] != "/") {
                result = match(i + 1, j + 1)
            } else {
                result = false
            }
            memo[key] = result
            return result
        }
        return match(0, 0)
    }
}
