/// A number with a unit, openHAB's `QuantityType`: `21.5 °C`, `60 W`, `1.234 kWh`.
public struct Quantity: Sendable, Hashable, CustomStringConvertible {
    /// The number, with the text it prints as.
    public let number: DecimalNumber
    /// The unit.
    public let unit: QuantityUnit

    /// A quantity of `number` `unit`.
    public init(_ number: DecimalNumber, _ unit: QuantityUnit) {
        self.number = number
        self.unit = unit
    }

    /// The numeric value in ``unit``.
    public var value: Double { number.value }

    /// Parses `21.5 °C`, `21.5°C`, `2 kW` (number, optional spaces, unit symbol).
    public init?(parsing text: some StringProtocol) {
        let s = String(text)
        guard let unitStart = s.firstIndex(where: { !($0.isASCII && ($0.isNumber || "+-.,eE".contains($0))) })
        else { return nil }
        // An 'e' followed by a unit letter is ambiguous; units here never start with e/E.
        let numberText = s[..<unitStart]
        let unitText = s[unitStart...].drop(while: { $0 == " " })
        guard let number = DecimalNumber(parsing: numberText), let unit = QuantityUnit(symbol: unitText) else { return nil }
        self.init(number, unit)
    }

    /// This quantity in `target` (same dimension); the text is recomputed from the double
    /// unless the unit is unchanged.
    ///
    /// openHAB converts with exact decimals; the twin converts in binary floating point and
    /// rounds to 1e-9 so that `212 °F` is exactly `100.0 °C`, not `100.00000000000006 °C`.
    public func converted(to target: QuantityUnit) -> Quantity? {
        guard unit.converts(to: target) else { return nil }
        guard target != unit else { return self }
        let converted = (target.fromBase(unit.toBase(value)) * 1e9).rounded() / 1e9
        return Quantity(DecimalNumber(converted), target)
    }

    /// `number unit` as openHAB 5 prints it, e.g. `21.5 °C`, `21 °C` (never `21.0 °C`), `0 kWh`; a
    /// quantity in the unit ONE prints as its number alone (`0.9994`), as Indriya formats it.
    public var description: String { unit == .one ? number.stateText : "\(number.stateText) \(unit.symbol)" }
}
