import Simulation

extension CSVWriter {
    /// `value` with exactly `places` decimals, `.` as separator, no grouping, whatever the locale.
    ///
    /// Rounds by ``DecimalText``'s rule, the one openHAB Item states use too: half away from zero
    /// on the shortest decimal form that reads back as `value`, so `2.675` gives `2.68` and
    /// `25.849999999999998` at one decimal `25.8`. A result that rounds to zero never carries a
    /// sign: `-0.0001` and `-0.0` give `0.000`.
    /// - Parameters:
    ///   - value: the number; must be finite.
    ///   - places: decimals to print, 0 or more.
    /// - Throws: ``ReportsError`` `report.nonFinite` for NaN or ±infinity: a report never
    ///   prints `nan` or `inf`, and an empty field would hide a broken meter.
    public static func decimal(_ value: Double, places: Int) throws(ReportsError) -> String {
        guard value.isFinite else {
            throw ReportsError(.nonFiniteNumber,
                               "A report figure is \(value), not a finite number; a meter or snapshot is broken, so the report was not written.")
        }
        return DecimalText.fixed(value, places: places)
    }

    /// Like ``decimal(_:places:)``, for an optional figure: `nil` gives an empty field.
    public static func decimal(_ value: Double?, places: Int) throws(ReportsError) -> String {
        guard let value else { return "" }
        return try decimal(value, places: places)
    }
}
