import Reports
import Testing

@Suite("CSV writing: RFC 4180 quoting and locale-independent decimals")
struct CSVWriterTests {
    @Test("fields are quoted only when they must be", arguments: [
        ("plain", "plain"),
        ("", ""),
        ("Kovács, Anna", "\"Kovács, Anna\""),
        ("Bob \"Builder\"", "\"Bob \"\"Builder\"\"\""),
        ("two\nlines", "\"two\nlines\""),
        ("carriage\rreturn", "\"carriage\rreturn\""),
        ("crlf\r\nend", "\"crlf\r\nend\""),
        ("\"", "\"\"\"\""),
        ("semi;colon and 'single'", "semi;colon and 'single'"),
    ])
    func quoting(raw: String, written: String) {
        #expect(CSVWriter.field(raw) == written)
    }

    @Test func headerFirstThenRowsWithLineFeeds() {
        var writer = CSVWriter(header: ["a", "b,c"])
        writer.appendRow(["1", "x\"y"])
        writer.appendRow(["", "2"])
        #expect(writer.text == "a,\"b,c\"\n1,\"x\"\"y\"\n,2\n")
        #expect(writer.header == ["a", "b,c"])
    }

    @Test("decimals are fixed, rounded half away from zero, and never negative zero", arguments: [
        (0.0, 3, "0.000"),
        (-0.0, 3, "0.000"),
        (-0.0004, 3, "0.000"),
        (-0.0005, 3, "-0.001"),
        (-1e-13, 3, "0.000"),
        (1e-13, 3, "0.000"),
        (0.0005, 3, "0.001"),
        (1.0005, 3, "1.001"),
        (2.675, 2, "2.68"),
        (-2.675, 2, "-2.68"),
        (9.9995, 3, "10.000"),
        (999.96, 1, "1000.0"),
        (1.08, 3, "1.080"),
        (21.6, 3, "21.600"),
        (1234567.891, 2, "1234567.89"),
        (1.5e20, 3, "150000000000000000000.000"),
        (Double.leastNonzeroMagnitude, 3, "0.000"),
        (2.5, 0, "3"),
        (-2.5, 0, "-3"),
        (-0.4, 0, "0"),
        (0.25, 1, "0.3"),
        (12.0, 1, "12.0"),
        (0.1 + 0.2, 2, "0.30"),
        (25.849999999999998, 1, "25.8"),  // as the Item state of the same value (DecimalText's rule)
    ])
    func decimals(value: Double, places: Int, written: String) throws {
        #expect(try CSVWriter.decimal(value, places: places) == written)
    }

    @Test("NaN and infinity are refused, never printed", arguments: [Double.nan, .infinity, -.infinity, .signalingNaN])
    func nonFinite(value: Double) {
        #expect(throws: ReportsError.self) { try CSVWriter.decimal(value, places: 3) }
        do {
            _ = try CSVWriter.decimal(value, places: 3)
        } catch {
            #expect(error.code == .nonFiniteNumber)
            #expect(error.code.rawValue == "report.nonFinite")
        }
    }

    @Test func missingOptionalFigureIsAnEmptyField() throws {
        #expect(try CSVWriter.decimal(Double?.none, places: 3) == "")
        #expect(try CSVWriter.decimal(Double?.some(1.5), places: 3) == "1.500")
    }
}
