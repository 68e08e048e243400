import Foundation
import Simulation
import Testing

@Suite("DecimalText: one rounding rule for Item states, CSV and charts")
struct DecimalTextTests {
    @Test("25.849999999999998 at one decimal is 25.8: the shortest text's next digit is a 4")
    func issueExample() {
        let value = 25.849999999999998
        #expect(value.description == "25.849999999999998")
        // value·10 rounds to 258.5 in binary; rounding that product would give 25.9.
        #expect(value * 10 == 258.5)
        #expect(DecimalText.fixed(value, places: 1) == "25.8")
        #expect(DecimalText.scaledMagnitude(value, places: 1) == 258)
    }

    @Test("half away from zero on the shortest decimal text", arguments: [
        (2.675, 2, "2.68"),       // binary value lies below 2.675; the text does not
        (1.0005, 3, "1.001"),
        (2.5, 0, "3"),
        (-2.5, 0, "-3"),
        (0.05, 1, "0.1"),
        (21.349, 1, "21.3"),
        (21.35, 1, "21.4"),
        (-0.0001, 3, "0.000"),    // zero never carries a sign
        (-0.0, 2, "0.00"),
        (1e-20, 2, "0.00"),
        (123.0, 0, "123"),
        (0.125, 2, "0.13"),
        (1e20, 1, "100000000000000000000.0"),
        (-3.5e19, 0, "-35000000000000000000"),
    ])
    func rule(value: Double, places: Int, text: String) {
        #expect(DecimalText.fixed(value, places: places) == text)
    }

    @Test("the fast path and the exact digit path agree on random values", arguments: 0...4)
    func fastPathAgreesWithDigits(places: Int) {
        var random = SplitMix64(seed: 0xDEC1 &+ UInt64(places))
        for index in 0..<5_000 {
            let magnitude = [1.0, 30, 2_000, 1e6][index % 4]
            // Values on or next to a half at this precision, and arbitrary ones.
            var scale = 1.0
            for _ in 0...places { scale *= 10 }
            let raw = (random.nextUnit() * 2 - 1) * magnitude
            let value = index % 2 == 0 ? ((raw * scale).rounded() + 5) / scale / 10 * 10 : raw
            #expect(DecimalText.fixed(value, places: places) == Self.reference(value, places: places), "\(value)")
        }
    }

    @Test("halves and their neighbouring doubles round as their shortest texts do", arguments: 0...6)
    func halvesAndNeighbours(places: Int) {
        var random = SplitMix64(seed: 0x4A1F &+ UInt64(places))
        var scale = 1.0
        for _ in 0..<places { scale *= 10 }
        for index in 0..<4_000 {
            // k.5·10^-places for k up to 10^3…10^9, as the nearest double, and the doubles either side.
            let k = (random.nextUnit() * [1e3, 1e6, 1e9][index % 3]).rounded(.down)
            let half = (2 * k + 1) / (2 * scale)
            for value in [half, half.nextUp, half.nextDown, -half, -half.nextUp] {
                #expect(DecimalText.fixed(value, places: places) == Self.reference(value, places: places), "\(value) at \(places)")
            }
        }
        // A 0.5 W standby metered in kWh at every whole hour: a half at three decimals every other hour.
        for hours in 0..<2_000 {
            let kWh = 0.5 * Double(hours) * 3_600 / 3.6e6
            #expect(DecimalText.fixed(kWh, places: 3) == Self.reference(kWh, places: 3), "\(kWh)")
        }
    }

    @Test("json numbers: integral values without a fraction, others shortest, no non-finite")
    func json() {
        #expect(DecimalText.json(1013) == "1013")
        #expect(DecimalText.json(-0.0) == "0")
        #expect(DecimalText.json(-3.2) == "-3.2")
        #expect(DecimalText.json(269.95) == "269.95")
        #expect(DecimalText.json(.nan) == nil)
        #expect(DecimalText.json(.infinity) == nil)
    }

    /// The rule by hand: the shortest text's digits in full (at 40 places the digit path, past 15,
    /// adds zeros and rounds nothing for these magnitudes), rounded half away from zero.
    static func reference(_ value: Double, places: Int) -> String {
        round(DecimalText.fixed(value, places: 40), toPlaces: places)
    }

    /// Rounds a plain decimal text half away from zero by hand: the rule written out on digits.
    static func round(_ text: String, toPlaces places: Int) -> String {
        let negative = text.hasPrefix("-")
        let body = negative ? String(text.dropFirst()) : text
        let parts = body.split(separator: ".", omittingEmptySubsequences: false)
        var digits = Array(parts[0] + parts[1].prefix(places)).map { Int(String($0)) ?? 0 }
        let next = parts[1].dropFirst(places).first.flatMap { Int(String($0)) } ?? 0
        if next >= 5 {
            var i = digits.count - 1
            while i >= 0, digits[i] == 9 { digits[i] = 0; i -= 1 }
            if i >= 0 { digits[i] += 1 } else { digits.insert(1, at: 0) }
        }
        let whole = digits.dropLast(places).map(String.init).joined()
        let fraction = digits.suffix(places).map(String.init).joined()
        let isZero = digits.allSatisfy { $0 == 0 }
        return (negative && !isZero ? "-" : "") + whole + (places > 0 ? "." + fraction : "")
    }

    @Test("appendFixed writes the bytes of fixed, on its fast path and off it")
    func appendFixedMatchesFixed() {
        var random = SplitMix64(seed: 31)
        var values: [Double] = [0, -0.0, 0.5, -0.5, 2.675, 25.849999999999998, 1e20, -3.5e19, 9.0e18, 1e-20, -0.0001, 123.0,
                                Double.greatestFiniteMagnitude, -Double.leastNonzeroMagnitude]
        for _ in 0..<20_000 {
            let magnitude = pow(10, Double(random.next() % 24) - 6)
            let sign: Double = random.next() % 2 == 0 ? 1 : -1
            values.append(sign * Double(random.next() % 1_000_000_007) / 1_000_000_007 * magnitude)
            values.append(sign * Double(random.next() % 100_000) / 2_000)  // halves and near-halves
        }
        for value in values {
            for places in [0, 1, 2, 3, 6, 15, 17] {
                var bytes: [UInt8] = Array("x,".utf8)
                DecimalText.appendFixed(value, places: places, to: &bytes)
                #expect(String(decoding: bytes, as: UTF8.self) == "x," + DecimalText.fixed(value, places: places), "\(value) at \(places)")
            }
        }
    }

    @Test("appendDigits pads to its minimum count and writes every UInt64", arguments: [
        (UInt64(0), 1, "0"), (UInt64(0), 3, "000"), (UInt64(7), 3, "007"), (UInt64(1234), 2, "1234"),
        (UInt64(9_999_999_999_999_999_999), 1, "9999999999999999999"), (UInt64.max, 1, "18446744073709551615"),
        (UInt64(10_000_000_000_000_000_000), 1, "10000000000000000000"), (UInt64(5), 22, "0000000000000000000005"),
        (UInt64.max, 21, "018446744073709551615"), (UInt64(0), 0, "0"),
    ])
    func appendDigits(value: UInt64, minimum: Int, text: String) {
        var bytes: [UInt8] = []
        DecimalText.appendDigits(of: value, minimumCount: minimum, to: &bytes)
        #expect(String(decoding: bytes, as: UTF8.self) == text)
    }
}
