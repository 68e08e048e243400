/// `body` applied to `value` in place: through an array's or dictionary's modify accessor when `value` is
/// one of their elements (`inPlace(&timers.values[index]) { $0.sequence }`), where a plain read through the
/// getter copies the whole element first. For large elements read on hot paths (the kernel's timers, the
/// runtime's channel routes).
@inlinable @inline(__always)
public func inPlace<Value, Result>(_ value: inout Value, _ body: (inout Value) -> Result) -> Result { body(&value) }
