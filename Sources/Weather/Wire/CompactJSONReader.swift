import Foundation

/// A strict, cautious pull reader of JSON bytes for hand-written decoders of hot wire bodies
/// (``OWMCurrentWeather/init(compactJSON:)``).
///
/// Every `read…` method returns `nil` (or `false`) not only for malformed JSON but for anything whose
/// meaning it does not settle exactly as Foundation's `JSONDecoder` would: string escapes (also in skipped
/// values), invalid UTF-8, non-ASCII keys, `-0`, integers with a fraction or exponent, numbers out of
/// range, repeated keys, deep nesting. The caller then falls back to
/// `JSONDecoder`, so the reader never has to reproduce its error messages, only its successes.
///
/// Not copyable: its key buffer is its own allocation, and a copy per nested read (a retained array each time)
/// was a fifth of a body's reading.
struct CompactJSONReader: ~Copyable {
    /// How deeply skipped values may nest (`JSONDecoder` allows more; deeper bodies fall back to it).
    static let maximumDepth = 32

    /// An object key as read: its bytes in the body (ASCII, no escapes), compared without making a `String`.
    ///
    /// `switch key { case "coord": … }` matches it against string literals.
    struct Key {
        fileprivate let start: UnsafeRawPointer
        fileprivate let count: Int

        /// Whether the key is `literal` (inlined: most cases of a `switch` fail on the length alone).
        @inline(__always)
        static func ~= (literal: StaticString, key: Key) -> Bool {
            guard literal.utf8CodeUnitCount == key.count else { return false }
            // Keys are short: a loop beats a call to memcmp.
            let expected = literal.utf8Start
            for i in 0..<key.count where expected[i] != key.start.load(fromByteOffset: i, as: UInt8.self) { return false }
            return true
        }
    }

    private let bytes: UnsafeRawBufferPointer
    private var position = 0
    private var depth = 0
    /// The key ranges of the objects being read, innermost last (one buffer for the whole body, for the
    /// repeated-key check).
    private var openKeys: UnsafeMutablePointer<Range<Int>>
    /// How many ``openKeys`` the allocation holds.
    private var openKeyCapacity = 32
    /// How many entries of ``openKeys`` are in use (entries past it are stale and overwritten: closing an
    /// object only moves this back).
    private var openKeyCount = 0
    /// Whether the string ``stringRange()`` last read has a byte of 0x80 or more (checked as it is scanned).
    private var lastStringHasNonASCII = false

    /// A reader at the start of `bytes`.
    init(_ bytes: UnsafeRawBufferPointer) {
        self.bytes = bytes
        openKeys = .allocate(capacity: openKeyCapacity)
    }

    deinit {
        openKeys.deallocate()
    }

    /// The next byte after whitespace, without consuming it (`nil` at the end).
    var peek: UInt8? {
        @inline(__always) mutating get {
            skipWhitespace()
            return position < bytes.count ? bytes[position] : nil
        }
    }

    /// Whether only whitespace is left.
    var isAtEnd: Bool {
        mutating get { peek == nil }
    }

    /// Reads an object, calling `body` with each key (the reader positioned at its value), which must
    /// read or skip the value and return whether it could.
    /// - Returns: `false` for malformed JSON, a key with an escape or non-ASCII, a repeated key, or when
    ///   `body` returns `false`.
    mutating func readObject(_ body: (inout CompactJSONReader, Key) -> Bool) -> Bool {
        guard depth < Self.maximumDepth, consume(UInt8(ascii: "{")) else { return false }
        depth += 1
        let firstKey = openKeyCount
        defer {
            depth -= 1
            openKeyCount = firstKey
        }
        if consume(UInt8(ascii: "}")) { return true }
        // A bit per key shape (length and end bytes) read in this object: a key whose bit is not set yet
        // cannot repeat one, and only the others are compared with the keys before them.
        var shapes: UInt64 = 0
        while true {
            guard let key = readKey(), open(key, shapes: &shapes, firstKey: firstKey) else { return false }
            guard consume(UInt8(ascii: ":")), body(&self, Key(start: base + key.lowerBound, count: key.count)) else { return false }
            if consume(UInt8(ascii: ",")) { continue }
            return consume(UInt8(ascii: "}"))
        }
    }

    /// One member of an object as it was read: its bytes in the body, from its key's opening quote to its value's
    /// last byte, and its key's length.
    struct Member {
        let span: Range<Int>
        let keyCount: Int
    }

    /// Reads an object as ``readObject(_:)`` does, but first compares each member with the member at the same place of
    /// an object read before (`earlierMembers`, in the body `earlier`): a member whose bytes — key, colon, value — are
    /// that member's and which is followed by the same byte is that member again (the same key, and a value read from
    /// the same bytes is the same value), so `reuse` is called with its key instead of `body`, and its value is not read.
    /// The repeated-key check covers every member. `members` is set to this object's members (for the next body).
    /// - Returns: as ``readObject(_:)``.
    mutating func readObject(earlier: UnsafeRawBufferPointer, _ earlierMembers: [Member], members: inout [Member],
                             reuse: (Key) -> Void, _ body: (inout CompactJSONReader, Key) -> Bool) -> Bool {
        members.removeAll(keepingCapacity: true)
        guard depth < Self.maximumDepth, consume(UInt8(ascii: "{")) else { return false }
        depth += 1
        let firstKey = openKeyCount
        defer {
            depth -= 1
            openKeyCount = firstKey
        }
        if consume(UInt8(ascii: "}")) { return true }
        var shapes: UInt64 = 0
        while true {
            skipWhitespace()
            let start = position
            if members.count < earlierMembers.count, let key = sameMember(earlierMembers[members.count], of: earlier) {
                guard open(key, shapes: &shapes, firstKey: firstKey) else { return false }
                position = start + earlierMembers[members.count].span.count
                reuse(Key(start: base + key.lowerBound, count: key.count))
                members.append(Member(span: start..<position, keyCount: key.count))
            } else {
                guard let key = readKey(), open(key, shapes: &shapes, firstKey: firstKey) else { return false }
                guard consume(UInt8(ascii: ":")), body(&self, Key(start: base + key.lowerBound, count: key.count)) else { return false }
                members.append(Member(span: start..<position, keyCount: key.count))
            }
            if consume(UInt8(ascii: ",")) { continue }
            return consume(UInt8(ascii: "}"))
        }
    }

    /// Reads an array, each element with `element`.
    /// - Returns: the elements, or `nil` for malformed JSON or an element `element` could not read.
    mutating func readArray<Element>(_ element: (inout CompactJSONReader) -> Element?) -> [Element]? {
        guard depth < Self.maximumDepth, consume(UInt8(ascii: "[")) else { return nil }
        depth += 1
        defer { depth -= 1 }
        var elements: [Element] = []
        if consume(UInt8(ascii: "]")) { return elements }
        while true {
            guard let value = element(&self) else { return nil }
            elements.append(value)
            if consume(UInt8(ascii: ",")) { continue }
            return consume(UInt8(ascii: "]")) ? elements : nil
        }
    }

    /// Reads an optional field's value: `null` leaves `value` `nil`, anything else must be read by `read`.
    /// - Returns: whether the value was `null` or could be read.
    mutating func readOptional<Value>(_ value: inout Value?, _ read: (inout CompactJSONReader) -> Value?) -> Bool {
        if consumeLiteral("null") {
            value = nil
            return true
        }
        value = read(&self)
        return value != nil
    }

    /// Reads a string without escapes (valid UTF-8, no control characters).
    mutating func readString() -> String? {
        guard let range = stringRange() else { return nil }
        return text(range)
    }

    /// Reads an integer written without fraction or exponent (`-0` is refused), if it fits `T`.
    mutating func readInteger<T: FixedWidthInteger>() -> T? {
        guard let literal = numberRange(), literal.isInteger else { return nil }
        var value: T = 0
        var i = literal.range.lowerBound
        let negative = bytes[i] == UInt8(ascii: "-")
        if negative { i += 1 }
        while i < literal.range.upperBound {
            let digit = T(bytes[i] &- UInt8(ascii: "0"))
            let (times10, overflow1) = value.multipliedReportingOverflow(by: 10)
            let (next, overflow2) = negative ? times10.subtractingReportingOverflow(digit) : times10.addingReportingOverflow(digit)
            guard !overflow1, !overflow2 else { return nil }
            value = next
            i += 1
        }
        guard !(negative && value == 0) else { return nil }
        return value
    }

    /// Reads a number as a `Double` (correctly rounded); refuses zeros with a sign, results out of the
    /// normal range and literals longer than 40 characters.
    mutating func readDouble() -> Double? {
        guard let literal = numberRange(), literal.range.count <= 40 else { return nil }
        guard let value = exactDouble(literal) ?? parsedDouble(literal), value.isFinite else { return nil }
        if value == 0 {
            // `0`, `0.0`: yes; `-0`, an underflow (`1e-400`) or a zero with an exponent (`0e3`, which
            // JSONDecoder refuses): no.
            guard bytes[literal.range.lowerBound] != UInt8(ascii: "-"), !literal.hasNonZeroDigit, !literal.hasExponent else { return nil }
        } else if !value.isNormal {
            return nil
        }
        return value
    }

    /// Skips any one value, checking that it is valid JSON.
    mutating func skipValue() -> Bool {
        switch peek {
        case UInt8(ascii: "{"): return readObject { reader, _ in reader.skipValue() }
        case UInt8(ascii: "["): return readArray { $0.skipValue() ? () : nil } != nil
        case UInt8(ascii: "\""):
            guard let range = stringRange() else { return false }
            return text(range) != nil
        case UInt8(ascii: "t"): return consumeLiteral("true")
        case UInt8(ascii: "f"): return consumeLiteral("false")
        case UInt8(ascii: "n"): return consumeLiteral("null")
        default:
            // Only numbers that read as finite doubles: what JSONDecoder makes of others is not settled here.
            guard let literal = numberRange(), literal.range.count <= 40 else { return false }
            return (exactDouble(literal) ?? parsedDouble(literal))?.isFinite ?? false
        }
    }

    // MARK: Private

    /// The start of the body (`bytes` is never empty when a key is read).
    private var base: UnsafeRawPointer { bytes.baseAddress ?? UnsafeRawPointer(bitPattern: 1).unsafelyUnwrapped }

    /// The sum of a key's first and last bytes (0 for the empty key).
    @inline(__always)
    private func firstAndLast(_ key: Range<Int>) -> UInt16 {
        key.isEmpty ? 0 : UInt16(bytes[key.lowerBound]) &+ UInt16(bytes[key.upperBound - 1])
    }

    /// Records `key` among the open object's keys (whose first is at `openKeys[firstKey]`); `false` when it repeats one.
    @inline(__always)
    private mutating func open(_ key: Range<Int>, shapes: inout UInt64, firstKey: Int) -> Bool {
        let shape: UInt64 = 1 << (UInt64(truncatingIfNeeded: key.count &* 7 &+ Int(firstAndLast(key))) & 63)
        if shapes & shape != 0, isRepeated(key, after: firstKey) { return false }
        shapes |= shape
        if openKeyCount == openKeyCapacity { growOpenKeys() }
        openKeys[openKeyCount] = key
        openKeyCount += 1
        return true
    }

    /// The key range of the member at ``position`` if its bytes are `member`'s in `earlier`, followed by the same byte
    /// (the end of a number is where its next byte is not part of it); `nil` otherwise.
    private func sameMember(_ member: Member, of earlier: UnsafeRawBufferPointer) -> Range<Int>? {
        let span = member.span, start = position
        guard span.upperBound < earlier.count, span.count < bytes.count - start,
              bytes[start + span.count] == earlier[span.upperBound], let from = earlier.baseAddress,
              memcmp(base + start, from + span.lowerBound, span.count) == 0 else { return nil }
        return (start + 1)..<(start + 1 + member.keyCount)
    }

    /// Doubles the room for open keys (a body with more than 32 keys open at once).
    private mutating func growOpenKeys() {
        let grown = UnsafeMutablePointer<Range<Int>>.allocate(capacity: openKeyCapacity * 2)
        grown.moveInitialize(from: openKeys, count: openKeyCapacity)
        openKeys.deallocate()
        openKeys = grown
        openKeyCapacity *= 2
    }

    /// Whether `key` is among the keys read so far of the object whose first key is at `openKeys[first]`
    /// (keys are short: a byte loop, and most keys differ in length).
    @inline(__always)
    private func isRepeated(_ key: Range<Int>, after first: Int) -> Bool {
        var i = first
        while i < openKeyCount {
            let other = openKeys[i]
            i += 1
            guard other.count == key.count else { continue }
            var j = 0
            while j < key.count, bytes[other.lowerBound + j] == bytes[key.lowerBound + j] { j += 1 }
            if j == key.count { return true }
        }
        return false
    }

    @inline(__always)
    private mutating func skipWhitespace() {
        // On a local index: the loop then keeps it in a register, not in `self`.
        var i = position
        while i < bytes.count {
            let byte = bytes[i]
            guard byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\n") || byte == UInt8(ascii: "\t") || byte == UInt8(ascii: "\r") else { break }
            i += 1
        }
        position = i
    }

    /// Consumes `byte` (after whitespace) if it is next.
    @inline(__always)
    private mutating func consume(_ byte: UInt8) -> Bool {
        guard peek == byte else { return false }
        position += 1
        return true
    }

    /// Consumes `true`, `false` or `null` if it is next.
    private mutating func consumeLiteral(_ literal: StaticString) -> Bool {
        skipWhitespace()
        let count = literal.utf8CodeUnitCount, expected = literal.utf8Start
        // The first byte settles most calls (an optional field's value is rarely `null`).
        guard bytes.count - position >= count, bytes[position] == expected[0] else { return false }
        for i in 1..<count where bytes[position + i] != expected[i] { return false }
        position += count
        return true
    }

    /// An object key: a string of ASCII without escapes; its range in the body.
    private mutating func readKey() -> Range<Int>? {
        guard let range = stringRange(), !lastStringHasNonASCII else { return nil }
        return range
    }

    /// The content of the string ``stringRange()`` just read as text: ASCII as it is, anything else only if
    /// it is valid UTF-8.
    private func text(_ range: Range<Int>) -> String? {
        let raw = UnsafeRawBufferPointer(rebasing: bytes[range])
        if !lastStringHasNonASCII { return String(decoding: raw, as: UTF8.self) }
        return String(validating: raw, as: UTF8.self)
    }

    /// 10^`exponent` for 0 … 15, exact in a `Double` (any power up to 10^22 is); literals, so no lazy global is
    /// checked per number.
    private static func exactPowerOfTen(_ exponent: Int) -> Double {
        switch exponent {
        case 0: 1
        case 1: 1e1
        case 2: 1e2
        case 3: 1e3
        case 4: 1e4
        case 5: 1e5
        case 6: 1e6
        case 7: 1e7
        case 8: 1e8
        case 9: 1e9
        case 10: 1e10
        case 11: 1e11
        case 12: 1e12
        case 13: 1e13
        case 14: 1e14
        default: 1e15
        }
    }

    /// A literal without exponent and with at most 15 digits, as a `Double`: its digits as an integer (below
    /// 2^53, so exact) divided by a power of ten up to 10^15 (exact), one correctly rounded division — the
    /// correctly rounded value of the literal, as `Double(String)` gives it. `nil` for other literals.
    private func exactDouble(_ literal: NumberLiteral) -> Double? {
        guard !literal.hasExponent, literal.range.count <= 17 else { return nil }
        var digits: UInt64 = 0, digitCount = 0, fractionDigits = 0, inFraction = false
        for byte in bytes[literal.range] {
            switch byte {
            case UInt8(ascii: "-"): continue
            case UInt8(ascii: "."): inFraction = true
            default:
                digits = digits &* 10 &+ UInt64(byte &- UInt8(ascii: "0"))
                digitCount += 1
                if inFraction { fractionDigits += 1 }
            }
        }
        guard digitCount <= 15 else { return nil }
        let magnitude = Double(digits) / Self.exactPowerOfTen(fractionDigits)
        return bytes[literal.range.lowerBound] == UInt8(ascii: "-") ? -magnitude : magnitude
    }

    /// Any literal as a `Double`, by the standard library's correctly rounded parser.
    private func parsedDouble(_ literal: NumberLiteral) -> Double? {
        Double(String(decoding: UnsafeRawBufferPointer(rebasing: bytes[literal.range]), as: UTF8.self))
    }

    /// Consumes a string without escapes or control characters and returns the range of its content.
    private mutating func stringRange() -> Range<Int>? {
        guard consume(UInt8(ascii: "\"")) else { return nil }
        let start = position
        var high: UInt8 = 0
        var i = start  // a local index, as in skipWhitespace()
        while i < bytes.count {
            let byte = bytes[i]
            if byte == UInt8(ascii: "\"") {
                position = i + 1
                lastStringHasNonASCII = high >= 0x80
                return start..<i
            }
            guard byte >= 0x20, byte != UInt8(ascii: "\\") else { return nil }
            high |= byte
            i += 1
        }
        return nil
    }

    /// A number literal's extent and shape.
    private struct NumberLiteral {
        var range: Range<Int>
        /// No fraction and no exponent.
        var isInteger: Bool
        /// An exponent (`e3`, `E-2`).
        var hasExponent: Bool
        /// A digit other than `0` before the exponent.
        var hasNonZeroDigit: Bool
    }

    /// Consumes a number in JSON's grammar: `-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?`.
    private mutating func numberRange() -> NumberLiteral? {
        skipWhitespace()
        let start = position, count = bytes.count
        var isInteger = true, hasExponent = false, hasNonZeroDigit = false
        // Plain byte compares (no optional per byte): a body is mostly numbers.
        @inline(__always) func isDigit(_ i: Int) -> Bool { i < count && bytes[i] &- UInt8(ascii: "0") < 10 }
        @inline(__always) func isByte(_ i: Int, _ byte: UInt8) -> Bool { i < count && bytes[i] == byte }
        var i = position
        if isByte(i, UInt8(ascii: "-")) { i += 1 }
        guard isDigit(i) else { return nil }
        if bytes[i] == UInt8(ascii: "0") {
            i += 1
        } else {
            while isDigit(i) { i += 1 }
            hasNonZeroDigit = true
        }
        if isByte(i, UInt8(ascii: ".")) {
            isInteger = false
            i += 1
            guard isDigit(i) else { return nil }
            while isDigit(i) {
                if bytes[i] != UInt8(ascii: "0") { hasNonZeroDigit = true }
                i += 1
            }
        }
        if isByte(i, UInt8(ascii: "e")) || isByte(i, UInt8(ascii: "E")) {
            isInteger = false
            hasExponent = true
            i += 1
            if isByte(i, UInt8(ascii: "+")) || isByte(i, UInt8(ascii: "-")) { i += 1 }
            guard isDigit(i) else { return nil }
            while isDigit(i) { i += 1 }
        }
        position = i
        return NumberLiteral(range: start..<i, isInteger: isInteger, hasExponent: hasExponent, hasNonZeroDigit: hasNonZeroDigit)
    }
}
