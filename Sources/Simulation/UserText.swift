/// User text inside a message, quoted and cut to a bounded length, so that a 5 MB Item name is not
/// echoed whole (issue 26). Control characters are escaped where messages are printed
/// (`TerminalText`), not here.
public enum UserText {
    /// The most characters of user text a message shows.
    public static let maxShown = 80

    /// `text` in double quotes: at most `limit` characters of it, then `…` and its full size.
    public static func quoted(_ text: some StringProtocol, limit: Int = maxShown) -> String {
        "\"" + shown(text, limit: limit) + "\""
    }

    /// `text` cut as ``quoted(_:limit:)`` cuts it, without the quotes.
    public static func shown(_ text: some StringProtocol, limit: Int = maxShown) -> String {
        // utf8.count is O(1) for native strings: short text (nearly all) is returned without a walk.
        guard text.utf8.count > limit else { return String(text) }
        var end = text.startIndex
        var count = 0
        while count < limit, end < text.endIndex {
            text.formIndex(after: &end)
            count += 1
        }
        guard end < text.endIndex else { return String(text) }
        return String(text[..<end]) + "… (\(text.utf8.count) bytes in all)"
    }
}
