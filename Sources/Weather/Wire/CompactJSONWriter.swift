import Foundation
import Simulation

/// Writes compact JSON straight into bytes, producing exactly what ``OrderedJSONEncoder`` writes for
/// the same keys and values: no whitespace, `/` and non-ASCII verbatim, the same string escapes, and
/// numbers as ``DecimalText/json(_:)`` formats them.
///
/// For hand-written renderers of hot wire bodies (``OWMCurrentWeather/compactJSON()``), which skip the
/// encoder's node tree and `Encoder` containers. The caller writes keys in wire order; commas are placed
/// automatically.
///
/// The bytes go into one growing allocation that ``data()`` hands to the `Data` it returns (no copy);
/// the writer is therefore not copyable.
struct CompactJSONWriter: ~Copyable {
    /// `false` once a non-finite number was written (JSON cannot represent it; the encoder throws).
    private(set) var isValid = true
    /// Whether the next key or array element needs a comma before it.
    private var needsComma = false
    private var storage: UnsafeMutablePointer<UInt8>
    private var count = 0
    private var capacity: Int

    /// An empty writer with room for `capacity` bytes (it grows as needed).
    init(capacity: Int = 512) {
        self.capacity = max(16, capacity)
        storage = .allocate(capacity: self.capacity)
    }

    deinit {
        storage.deallocate()
    }

    /// The bytes written, handed over without a copy; `nil` when a non-finite number was written.
    consuming func data() -> Data? {
        let (bytes, count, isValid) = (storage, count, isValid)
        discard self
        guard isValid else {
            bytes.deallocate()
            return nil
        }
        return Data(bytesNoCopy: bytes, count: count, deallocator: .custom { pointer, _ in
            pointer.assumingMemoryBound(to: UInt8.self).deallocate()
        })
    }

    /// Opens an object: `{`.
    mutating func beginObject() {
        separate()
        append(UInt8(ascii: "{"))
        needsComma = false
    }

    /// Closes an object: `}`.
    mutating func endObject() {
        append(UInt8(ascii: "}"))
        needsComma = true
    }

    /// Opens an array: `[`.
    mutating func beginArray() {
        separate()
        append(UInt8(ascii: "["))
        needsComma = false
    }

    /// Closes an array: `]`.
    mutating func endArray() {
        append(UInt8(ascii: "]"))
        needsComma = true
    }

    /// Writes `"name":` (after a comma when it is not the object's first key); `name` must need no escaping.
    mutating func key(_ name: StaticString) {
        let length = name.utf8CodeUnitCount
        reserve(length + 4)
        if needsComma { storage[count] = UInt8(ascii: ","); count += 1 }
        storage[count] = UInt8(ascii: "\"")
        // A byte loop: keys are a few bytes, for which a call to memmove costs more than the copy.
        let source = name.utf8Start
        for i in 0..<length { storage[count + 1 + i] = source[i] }
        count += length + 1
        storage[count] = UInt8(ascii: "\"")
        storage[count + 1] = UInt8(ascii: ":")
        count += 2
        needsComma = false
    }

    /// Writes a number as ``DecimalText/json(_:)`` does; a non-finite one makes the output invalid.
    mutating func number(_ value: Double) {
        separate()
        if appendShortDecimal(value) {
            needsComma = true
            return
        }
        guard var text = DecimalText.json(value) else {
            isValid = false
            return
        }
        text.withUTF8 { append($0) }
        needsComma = true
    }

    /// Writes an integer in decimal (as `String(value)` does).
    mutating func integer(_ value: some BinaryInteger) {
        separate()
        if let value = Int64(exactly: value) {
            appendDecimal(value)
        } else {
            var text = String(value)
            text.withUTF8 { append($0) }
        }
        needsComma = true
    }

    /// Writes a string literal, escaped as ``JSONString`` escapes it:
    /// `"` and `\` escaped, control characters as `\n`-style or `\u00XX` escapes, everything else verbatim.
    mutating func string(_ text: String) {
        separate()
        var text = text
        text.withUTF8 { utf8 in
            // At most 6 bytes per byte (`\u00XX`) and the quotes.
            reserve(utf8.count * 6 + 2)
            storage[count] = UInt8(ascii: "\"")
            count += 1
            for byte in utf8 {
                switch byte {
                case UInt8(ascii: "\""): appendReserved(#"\""#)
                case UInt8(ascii: "\\"): appendReserved(#"\\"#)
                case 0x0A: appendReserved(#"\n"#)
                case 0x0D: appendReserved(#"\r"#)
                case 0x09: appendReserved(#"\t"#)
                case 0x08: appendReserved(#"\b"#)
                case 0x0C: appendReserved(#"\f"#)
                case 0x00..<0x20:
                    appendReserved(#"\u00"#)
                    storage[count] = Self.hexDigit(byte >> 4)
                    storage[count + 1] = Self.hexDigit(byte & 0x0F)
                    count += 2
                default:
                    // UTF-8 continuation and lead bytes are all ≥ 0x80: non-ASCII passes through whole.
                    storage[count] = byte
                    count += 1
                }
            }
            storage[count] = UInt8(ascii: "\"")
            count += 1
        }
        needsComma = true
    }

    // MARK: Private

    /// `0`–`9`, `a`–`f`.
    private static func hexDigit(_ value: UInt8) -> UInt8 {
        value < 10 ? UInt8(ascii: "0") + value : UInt8(ascii: "a") + value - 10
    }

    /// A comma before a value that follows another one in an array.
    @inline(__always)
    private mutating func separate() {
        if needsComma { append(UInt8(ascii: ",")) }
        needsComma = false
    }

    /// Makes room for `extra` more bytes.
    @inline(__always)
    private mutating func reserve(_ extra: Int) {
        guard count + extra > capacity else { return }
        let grown = max(capacity * 2, count + extra)
        let moved = UnsafeMutablePointer<UInt8>.allocate(capacity: grown)
        moved.moveInitialize(from: storage, count: count)
        storage.deallocate()
        storage = moved
        capacity = grown
    }

    @inline(__always)
    private mutating func append(_ byte: UInt8) {
        reserve(1)
        storage[count] = byte
        count += 1
    }

    private mutating func append(_ bytes: UnsafeBufferPointer<UInt8>) {
        reserve(bytes.count)
        if let base = bytes.baseAddress { (storage + count).initialize(from: base, count: bytes.count) }
        count += bytes.count
    }

    /// Appends an escape within room already reserved.
    private mutating func appendReserved(_ text: StaticString) {
        (storage + count).initialize(from: text.utf8Start, count: text.utf8CodeUnitCount)
        count += text.utf8CodeUnitCount
    }

    /// The decimal digits of `value`, with `-` when negative, without a `String` in between.
    /// Writes `value` as ``DecimalText/json(_:)`` would when it is integral or has at most four decimals and
    /// a magnitude below 10^9 (the feed's rounded figures), without making a `String`; `false` (nothing
    /// written) for any other value.
    ///
    /// A decimal `n / 10^p` (`n` below 2^53, so exact) that reads back as `value` — `Double(n) / 10^p`, one
    /// correctly rounded division, is what reading its text gives — is the round-trip form Swift prints: below
    /// 10^9 a double's neighbours are nearer than 10^-4, so no other decimal with `p` or fewer places reads
    /// back as `value`, and the smallest such `p` is taken first (no trailing zero).
    private mutating func appendShortDecimal(_ value: Double) -> Bool {
        guard value.magnitude < 1e9 else { return false }
        if value == value.rounded() {
            appendDecimal(Int64(value))  // `-0` is `0`, as DecimalText.json writes it
            return true
        }
        var scale = 10.0
        for places in 1...4 {
            let scaled = (value * scale).rounded()
            if scaled / scale == value {
                let digits = Int64(scaled.magnitude)
                let divisor: Int64 = places == 1 ? 10 : places == 2 ? 100 : places == 3 ? 1_000 : 10_000
                reserve(1)
                if value < 0 { storage[count] = UInt8(ascii: "-"); count += 1 }
                appendDecimal(digits / divisor)
                reserve(places + 1)
                storage[count] = UInt8(ascii: ".")
                var fraction = digits % divisor
                var at = count + places
                count = at + 1
                for _ in 0..<places {
                    storage[at] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: fraction % 10)
                    fraction /= 10
                    at -= 1
                }
                return true
            }
            scale *= 10
        }
        return false
    }

    private mutating func appendDecimal(_ value: Int64) {
        reserve(20)  // `-` and 19 digits hold any Int64
        if value < 0 { storage[count] = UInt8(ascii: "-"); count += 1 }
        var magnitude = value.magnitude
        var digits = 1
        var rest = magnitude / 10
        while rest > 0 { digits += 1; rest /= 10 }
        var at = count + digits
        count = at
        repeat {
            at -= 1
            storage[at] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: magnitude % 10)
            magnitude /= 10
        } while magnitude > 0
    }
}
