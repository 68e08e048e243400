import Simulation

extension ItemType {
    /// Parses a command text the way openHAB's `TypeParser` does for this Item type's accepted
    /// command types: `ON` yes, `on` no; `21`, `21.5 °C`, `21.5°C` for numbers; `REFRESH` for all.
    ///
    /// `toggle` is not a command: the REST layer turns it into `ON`/`OFF` from the current state.
    /// - Returns: `nil` when the text is not a command this type accepts.
    /// - Parameter calendar: the zone a DateTime text without an offset is read in (openHAB's system zone).
    public func parseCommand(_ text: String, in calendar: LocalCalendar = .utc) -> Command? {
        if text == "REFRESH" { return .refresh }
        switch self {
        case .switchItem:
            return OnOff(rawValue: text).map(Command.onOff)
        case .contactItem:
            return nil
        case .numberItem:
            // A Number Item's accepted command types are DecimalType and QuantityType whatever its
            // dimension: `21.5 W` to a temperature parses (and reaches the handler, which ignores it).
            if let n = DecimalNumber(parsing: text) { return .decimal(n) }
            return Quantity(parsing: text).map(Command.quantity)
        case .stringItem:
            return .string(text)
        case .dimmerItem:
            if let v = OnOff(rawValue: text) { return .onOff(v) }
            if let v = IncreaseDecrease(rawValue: text) { return .increaseDecrease(v) }
            if let n = DecimalNumber(parsing: text), (0...100).contains(n.value) { return .percent(n) }
            return nil
        case .dateTimeItem:
            return DateTimeValue(parsing: text, in: calendar).map(Command.dateTime)
        case .groupItem:
            // A Group without a base type takes what its members take; the runtime forwards the command to
            // each member that accepts it. Read the text as the most specific type that fits.
            if let v = OnOff(rawValue: text) { return .onOff(v) }
            if let v = IncreaseDecrease(rawValue: text) { return .increaseDecrease(v) }
            if let n = DecimalNumber(parsing: text) { return .decimal(n) }
            if let q = Quantity(parsing: text) { return .quantity(q) }
            return .string(text)
        case .rollershutterItem:
            // RollershutterItem: UpDownType, StopMoveType, PercentType.
            if let v = UpDown(rawValue: text) { return .upDown(v) }
            if let v = StopMove(rawValue: text) { return .stopMove(v) }
            if let n = DecimalNumber(parsing: text), (0...100).contains(n.value) { return .percent(n) }
            return nil
        case .colorItem:
            // ColorItem: HSBType, PercentType, OnOffType, IncreaseDecreaseType.
            if let v = OnOff(rawValue: text) { return .onOff(v) }
            if let v = IncreaseDecrease(rawValue: text) { return .increaseDecrease(v) }
            if let n = DecimalNumber(parsing: text), (0...100).contains(n.value) { return .percent(n) }
            return HSB(parsing: text).map(Command.hsb)
        case .locationItem:
            return GeoPoint(parsing: text).map(Command.point)
        case .playerItem:
            if let v = PlayPause(rawValue: text) { return .playPause(v) }
            if let v = RewindFastforward(rawValue: text) { return .rewindFastforward(v) }
            if let v = NextPrevious(rawValue: text) { return .nextPrevious(v) }
            return nil
        case .callItem, .imageItem:
            return nil  // read-only: CallItem and ImageItem accept only REFRESH
        }
    }

    /// Parses a state text as one of this type's accepted data types (`PUT /items/{name}/state`, openHAB's
    /// `TypeParser.parseState`); `NULL` and `UNDEF` parse for every type. The state is as posted: whether
    /// the Item then takes it (a quantity of another dimension it drops) is ``Item/accepting(_:)``.
    /// - Returns: `nil` when the text is not a state of this type's data types.
    /// - Parameter calendar: the zone a DateTime text without an offset is read in (openHAB's system zone).
    public func parseState(_ text: String, in calendar: LocalCalendar = .utc) -> State? {
        if text == "NULL" { return .null }
        if text == "UNDEF" { return .undef }
        let candidate: State?
        switch self {
        case .switchItem: candidate = OnOff(rawValue: text).map(State.onOff)
        case .contactItem: candidate = OpenClosed(rawValue: text).map(State.openClosed)
        case .numberItem:
            if let n = DecimalNumber(parsing: text) { candidate = .decimal(n) }
            else { candidate = Quantity(parsing: text).map(State.quantity) }
        case .stringItem: candidate = .string(text)
        case .dimmerItem:
            // PercentType refuses values outside 0…100, as it does for a command.
            if let n = DecimalNumber(parsing: text) { candidate = (0...100).contains(n.value) ? .percent(n) : nil }
            else { candidate = OnOff(rawValue: text).map(State.onOff) }
        case .dateTimeItem: candidate = DateTimeValue(parsing: text, in: calendar).map(State.dateTime)
        case .groupItem:
            if let v = OnOff(rawValue: text) { candidate = .onOff(v) }
            else if let v = OpenClosed(rawValue: text) { candidate = .openClosed(v) }
            else if let n = DecimalNumber(parsing: text) { candidate = .decimal(n) }
            else if let q = Quantity(parsing: text) { candidate = .quantity(q) }
            else { candidate = .string(text) }
        case .rollershutterItem:
            if let n = DecimalNumber(parsing: text) { candidate = (0...100).contains(n.value) ? .percent(n) : nil }
            else { candidate = UpDown(rawValue: text).map { .percent(DecimalNumber(integer: $0 == .up ? 0 : 100)) } }
        case .colorItem:
            if let v = HSB(parsing: text) { candidate = .hsb(v) }
            else if let n = DecimalNumber(parsing: text) { candidate = (0...100).contains(n.value) ? .percent(n) : nil }
            else { candidate = OnOff(rawValue: text).map(State.onOff) }
        case .locationItem: candidate = GeoPoint(parsing: text).map(State.point)
        case .playerItem:
            if let v = PlayPause(rawValue: text) { candidate = .playPause(v) }
            else { candidate = RewindFastforward(rawValue: text).map(State.rewindFastforward) }
        case .callItem:
            candidate = .stringList(text.split(separator: ",", omittingEmptySubsequences: false).map(String.init))
        case .imageItem:
            candidate = text.hasPrefix("data:") ? .raw(text) : nil
        }
        return candidate
    }

    /// The state ``parseState(_:in:)`` makes of `number`'s text when that text is a plain decimal (no exponent),
    /// without parsing it: `.decimal(number)` for a Number Item (of any dimension: the Item then takes it in its
    /// unit, ``accepting(_:unit:)``) and a Group; `nil` for the other types, whose parse of the text the caller runs
    /// (a Dimmer's or Rollershutter's percent range, a String's text, a refusal).
    public func numberState(_ number: DecimalNumber) -> State? {
        switch self {
        case .numberItem, .groupItem: return .decimal(number)
        default: return nil
        }
    }

    /// The command ``parseCommand(_:in:)`` makes of `number`'s text when that text is a plain decimal (no exponent),
    /// without parsing it: `.decimal(number)` for a Number Item (of any dimension) and a Group; `nil` for the other
    /// types, whose parse of the text the caller runs (openHAB's `sendCommand(Item, Number)` sends
    /// `number.toString()` for the Item's accepted command types to parse).
    public func numberCommand(_ number: DecimalNumber) -> Command? {
        switch self {
        case .numberItem, .groupItem: return .decimal(number)
        default: return nil
        }
    }

    /// The state an Item of this type holding states in `unit` takes when handed `state` (by a device,
    /// by autoupdate or by the REST API), or `nil` if it drops it (openHAB's `NumberItem.getInternalState`
    /// and `GenericItem.isAcceptedState`).
    ///
    /// A plain number given to a `Number:Dimension` Item takes the Item's unit (`21` → `21 °C`); a
    /// quantity is converted to the Item's unit, and one of another dimension is dropped; a plain
    /// `Number` Item strips the unit; a Dimmer turns ON/OFF into 100/0.
    /// - Parameter unit: the Item's unit (``Item/unit``); `nil` means the type's default.
    public func accepting(_ state: State, unit: QuantityUnit? = nil) -> State? {
        if state.isUndefined { return state }
        // A quantity for a Number with a dimension — every device report — first, without the table's tuple (a
        // copy of the state): in the Item's own unit it is taken as it is, otherwise converted.
        if case .numberItem(let d?) = self, case .quantity(let q) = state {
            let target = unit ?? d.defaultUnit
            if q.unit == target { return state }
            return q.converted(to: target).map(State.quantity)
        }
        switch (self, state) {
        case (.switchItem, .onOff), (.contactItem, .openClosed), (.stringItem, .string), (.dimmerItem, .percent),
             (.dateTimeItem, .dateTime), (.groupItem, _):
            return state
        case (.dimmerItem, .onOff(let v)):
            return .percent(DecimalNumber(integer: v.isOn ? 100 : 0))
        case (.rollershutterItem, .percent), (.colorItem, .hsb), (.locationItem, .point), (.playerItem, .playPause),
             (.playerItem, .rewindFastforward), (.callItem, .stringList), (.imageItem, .raw):
            return state
        case (.colorItem, .onOff(let v)):
            // ColorItem.setState keeps hue and saturation; a stateless conversion has none, so 0,0.
            return .hsb(HSB(hue: DecimalNumber(integer: 0), saturation: DecimalNumber(integer: 0),
                            brightness: DecimalNumber(integer: v.isOn ? 100 : 0)))
        case (.colorItem, .percent(let p)):
            return .hsb(HSB(hue: DecimalNumber(integer: 0), saturation: DecimalNumber(integer: 0), brightness: p))
        case (.numberItem(nil), .decimal):
            return state
        case (.numberItem(nil), .quantity(let q)):
            return .decimal(q.number)
        case (.numberItem(let d?), .decimal(let n)):
            return .quantity(Quantity(DecimalNumber(n.value), unit ?? d.defaultUnit))
        default:
            return nil
        }
    }
}
