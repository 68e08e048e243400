@testable import Scenarios
import Testing

/// Runs mixing what may pause (commands, updates, lambdas that send them) with what cannot: each part runs on
/// the interpreter's suspending or synchronous walk, and the result is the same as one walk would give.
@Suite("Rules DSL: runs that pause and runs that do not")
struct DSLPausingRunTests {
    @Test func lambdasThatPauseRunWhereverTheyAreCalledFrom() async throws {
        let (result, rules) = try await DSLLanguageTests.run("""
            val f = [ String s | Light.sendCommand(s) ]
            val fs = newArrayList(f)
            fs.get(0).apply("ON")
            logInfo("test", "after " + Light.state)
            #[1, 2, 3].filter[ n | n != 2 ].forEach[ n | Counter.postUpdate(n) ]
            logInfo("test", "counter " + Counter.state)
            val sum = #[3, 1, 2].sortBy[ it ].map[ it * 2 ].reduce[ a, b | a + b ]
            logInfo("test", "sum " + sum + " " + (if (Light.state == ON) { Light.sendCommand(OFF) "sent" } else "kept") + " " + Light.state)
            """, items: #"""
                [{ "name": "Go", "type": "Switch", "state": "OFF" }, { "name": "Light", "type": "Switch", "state": "OFF" },
                 { "name": "Counter", "type": "Number", "state": "0" }]
                """#)
        #expect(result.failures.isEmpty, "\(result.failures)")
        #expect(DSLLanguageTests.logged(rules) == ["after ON", "counter 3", "sum 12 sent OFF"], "\(rules)")
    }
}
