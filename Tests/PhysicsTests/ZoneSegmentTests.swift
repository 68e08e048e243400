import Foundation
import Testing

@testable import Physics

@Suite("ZoneSegment: the linear-ramp closed form")
struct ZoneSegmentTests {
    // MARK: Check 6 — the ramp solution against RK4

    @Test("the closed form matches RK4 (1 s step) within 1e-6 K over three days", arguments: RampCase.all)
    func againstRungeKutta(_ ramp: RampCase) throws {
        let segment = try ramp.segment()
        var worst = 0.0
        NumericalReference.rk4(
            segment.parameters, initial: ramp.initial, outdoor: ramp.outdoor,
            outdoorSlope: segment.outdoorSlopeKPerSecond, heatW: ramp.heatW,
            stepSeconds: 1, steps: 3 * 86_400
        ) { t, celsius in
            if Int(t).isMultiple(of: 60) { worst = max(worst, abs(segment.temperature(at: t) - celsius)) }
        }
        #expect(worst <= 1e-6)
    }

    @Test(
        "the ramp form equals the textbook form T = a + bt + Q/UA − bτ + (T0 − a − Q/UA + bτ)e^(−t/τ)",
        arguments: RampCase.all)
    func textbookForm(_ ramp: RampCase) throws {
        let segment = try ramp.segment()
        let zone = segment.parameters
        let tau = zone.timeConstantSeconds
        let a = ramp.outdoor
        let b = segment.outdoorSlopeKPerSecond
        let q = ramp.heatW / zone.uaWPerK
        for t in stride(from: 0.0, through: 5 * 86_400, by: 3_617) {
            let textbook = a + b * t + q - b * tau + (ramp.initial - a - q + b * tau) * exp(-t / tau)
            #expect(abs(segment.temperature(at: t) - textbook) <= 1e-9)
        }
    }

    @Test("the rate is the right-hand side of C·dT/dt = UA·(T_out − T) + Q", arguments: RampCase.all)
    func rateIsRightHandSide(_ ramp: RampCase) throws {
        let segment = try ramp.segment()
        let zone = segment.parameters
        for t in stride(from: 0.0, through: 3 * 86_400, by: 4_001) {
            let rhs =
                (zone.uaWPerK * (segment.outdoorTemperature(at: t) - segment.temperature(at: t))
                    + ramp.heatW) / zone.capacitanceJPerK
            #expect(abs(segment.rate(at: t) - rhs) <= 1e-12)
        }
    }

    @Test("the exact integral matches Simpson's rule", arguments: RampCase.all)
    func integralAgainstSimpson(_ ramp: RampCase) throws {
        let segment = try ramp.segment()
        for seconds: Double in [0.5, 60, 3_600, 86_400, 345_600] {
            let numeric = NumericalReference.simpson(from: 0, to: seconds, intervals: 4_000) {
                segment.temperature(at: $0)
            }
            #expect(abs(segment.integral(to: seconds) - numeric) <= 1e-11 * max(1, abs(numeric)))
        }
        #expect(segment.integral(to: 0) == 0)
        #expect(
            abs(segment.integral(from: 600, to: 7_200) - (segment.integral(to: 7_200) - segment.integral(to: 600))) == 0
        )
    }

    @Test("slope 0 gives exactly the constant-condition answers")
    func zeroSlopeIsConstantCase() throws {
        let zone = ZoneParameters.typicalFlat
        let segment = try ZoneSegment(parameters: zone, initialCelsius: 18, outdoorCelsius: -2, heatInputW: 1800)
        for t: Double in [0, 1, 977, 86_400, 1e7] {
            #expect(
                segment.temperature(at: t) == zone.temperature(after: t, from: 18, outdoorCelsius: -2, heatInputW: 1800)
            )
            #expect(
                segment.integral(to: t)
                    == zone.temperatureIntegral(over: t, from: 18, outdoorCelsius: -2, heatInputW: 1800))
        }
        #expect(
            segment.firstCrossing(of: 20, within: .infinity)
                == zone.timeToReach(threshold: 20, from: 18, outdoorCelsius: -2, heatInputW: 1800))
        #expect(segment.turningPointSeconds == nil)
    }

    @Test("continuing a segment reproduces the same trajectory", arguments: RampCase.all)
    func continuation(_ ramp: RampCase) throws {
        let segment = try ramp.segment()
        let later = try segment.continued(after: 7_000)
        #expect(later.outdoorCelsius == segment.outdoorTemperature(at: 7_000))
        for t: Double in [0, 100, 5_000, 90_000] {
            #expect(abs(later.temperature(at: t) - segment.temperature(at: 7_000 + t)) <= 1e-9)
        }
        let switched = try segment.continued(after: 7_000, heatInputW: 0, outdoorSlopeKPerSecond: 0)
        #expect(switched.heatInputW == 0 && switched.outdoorSlopeKPerSecond == 0)
        #expect(throws: PhysicsError.self) { try segment.continued(after: .nan) }
    }

    @Test("near t = 0 the solution is T0 + rate·t without cancellation")
    func smallTimes() throws {
        let segment = try RampCase.all[2].segment()
        let rate0 = segment.rate(at: 0)
        for t: Double in [1e-9, 1e-6, 1e-3] {
            // Second-order term is |T''|·t²/2 ≤ 1e-9·t², far below the tolerance.
            let increment = segment.temperature(at: t) - segment.initialCelsius
            #expect(abs(increment - rate0 * t) <= 1e-14 + 1e-9 * abs(rate0 * t))
            #expect(
                abs(segment.integral(to: t) - (segment.initialCelsius * t + rate0 * t * t / 2)) <= 1e-12 * t + 1e-20)
        }
    }

    @Test("the kernels' series and closed branches agree where they meet")
    func kernelContinuity() {
        let below = RelaxationKernels.seriesLimit.nextDown
        let at = RelaxationKernels.seriesLimit
        #expect(abs(RelaxationKernels.lagRatio(below) - RelaxationKernels.lagRatio(at)) <= 1e-15)
        #expect(abs(RelaxationKernels.lagRatio2(below) - RelaxationKernels.lagRatio2(at)) <= 1e-15)
        #expect(abs(RelaxationKernels.lagRatio(-below) - RelaxationKernels.lagRatio(-at)) <= 1e-15)
        #expect(abs(RelaxationKernels.lagRatio2(-below) - RelaxationKernels.lagRatio2(-at)) <= 1e-15)
        // Leading terms near 0: x/2 − x²/6 and x/6 − x²/24, to a few ulps.
        let x = 1e-8
        #expect(abs(RelaxationKernels.lagRatio(x) - (x / 2 - x * x / 6)) <= 1e-15 * x)
        #expect(abs(RelaxationKernels.lagRatio2(x) - (x / 6 - x * x / 24)) <= 1e-15 * x)
        // Limits for large x: 1 − 1/x and ½ − 1/x + 1/x².
        #expect(abs(RelaxationKernels.lagRatio(1e6) - (1 - 1e-6)) <= 1e-15)
        #expect(abs(RelaxationKernels.lagRatio2(1e6) - (0.5 - 1e-6 + 1e-12)) <= 1e-15)
    }

    @Test(
        "bad segment inputs throw physics.invalidParameter naming the field and value",
        arguments: [
            ("initialCelsius", "initialCelsius is nan °C; it must be a finite number."),
            ("outdoorCelsius", "outdoorCelsius is inf °C; it must be a finite number."),
            ("outdoorSlopeKPerSecond", "outdoorSlopeKPerSecond is nan K/s; it must be a finite number."),
            ("heatInputW", "heatInputW is -inf W; it must be a finite number."),
        ])
    func badSegment(field: String, message: String) throws {
        let zone = ZoneParameters.typicalFlat
        let error = try #require(throws: PhysicsError.self) {
            try ZoneSegment(
                parameters: zone,
                initialCelsius: field == "initialCelsius" ? .nan : 20,
                outdoorCelsius: field == "outdoorCelsius" ? .infinity : 0,
                outdoorSlopeKPerSecond: field == "outdoorSlopeKPerSecond" ? .nan : 0,
                heatInputW: field == "heatInputW" ? -.infinity : 0)
        }
        #expect(error.code == .invalidParameter)
        #expect(error.message == message)
    }

    @Test("a heat input whose steady state overflows throws physics.outOfRange")
    func overflowingSteadyState() throws {
        let zone = try ZoneParameters(uaWPerK: 1e-300, capacitanceKWhPerK: 1e-300)
        let error = try #require(throws: PhysicsError.self) {
            try ZoneSegment(parameters: zone, initialCelsius: 20, outdoorCelsius: 0, heatInputW: 1e10)
        }
        #expect(error.code == .outOfRange)
        #expect(error.message.contains("heatInputW 10000000000.0 W"))
    }
}
