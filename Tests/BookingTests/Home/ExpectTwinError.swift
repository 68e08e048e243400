// Test support only.
import Booking
import Testing

/// Expects `body` to fail with a ``BookingError`` of code `expected`; returns the error for further checks.
@discardableResult
func expectTwinError<T>(_ expected: BookingError.Code, sourceLocation: SourceLocation = #_sourceLocation,
                    _ body: () async throws -> T) async -> BookingError? {
    do {
        _ = try await body()
        Issue.record("expected \(expected.rawValue), but the call succeeded", sourceLocation: sourceLocation)
    } catch let error as BookingError {
        #expect(error.code == expected, "\(error)", sourceLocation: sourceLocation)
        return error
    } catch {
        Issue.record("expected \(expected.rawValue), got \(error)", sourceLocation: sourceLocation)
    }
    return nil
}
