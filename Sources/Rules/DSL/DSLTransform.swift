/// `transform(type, function, value)` and `transformRaw` (openhab-core `Transformation`), run by
/// ``ScriptTransformation``. `transform` answers the value itself when the service fails, as openHAB does;
/// `transformRaw` throws a `TransformationException` instead. A type the twin does not run (JS, XSLT, …), a
/// MAP/SCALE file the scenario does not load and a JSONPATH the twin does not run end the run naming them
/// (`rules.dslUnsupported`): openHAB would pass the value through unchanged, which would let a CI run pass on
/// untransformed data.
enum DSLTransform {
    static func call(raw: Bool, _ i: DSLInterpreter, _ a: [DSLValue], _ at: DSLLocation) throws(DSLFlow) -> DSLValue {
        let name = raw ? "transformRaw" : "transform"
        guard a.count == 3, case .string(let type) = a[0], case .string(let function) = a[1] else {
            throw DSLFlow.failure("\(name) takes a type (\"MAP\"), a function and a value", at, type: "IllegalArgumentException")
        }
        let value = i.describe(a[2])
        switch ScriptTransformation.apply(type: type, function: function, value: value, execution: i.execution, name: name) {
        case .value(let text): return text.map(DSLValue.string) ?? .null
        case .failure(let message):
            if raw { throw DSLFlow.failure(message, at, type: "TransformationException") }
            return .string(value)
        case .refused(let message):
            throw DSLFlow.fatal("\(message) (rules.dslUnsupported)", at)
        }
    }
}
