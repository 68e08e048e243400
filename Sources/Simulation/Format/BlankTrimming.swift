import Foundation

extension String {
    /// The text without leading and trailing blanks (`CharacterSet.whitespaces`: spaces, tabs and the
    /// other Unicode space separators), as `trimmingCharacters(in: .whitespaces)` gives it — but text
    /// that starts and ends with a visible ASCII character, the usual case on hot paths (a city name
    /// in every weather request), is returned without a Foundation round trip.
    public var trimmingBlanks: String {
        BlankTrimming.isTrimmed(utf8) ? self : trimmingCharacters(in: .whitespaces)
    }
}

extension Substring {
    /// ``Swift/String/trimmingBlanks`` of a substring.
    public var trimmingBlanks: String {
        BlankTrimming.isTrimmed(utf8) ? String(self) : trimmingCharacters(in: .whitespaces)
    }
}

private enum BlankTrimming {
    /// Whether the text starts and ends with a visible ASCII byte (so there is nothing to trim).
    static func isTrimmed(_ bytes: some BidirectionalCollection<UInt8>) -> Bool {
        guard let first = bytes.first, let last = bytes.last else { return false }
        return first > 0x20 && first < 0x7F && last > 0x20 && last < 0x7F
    }
}
