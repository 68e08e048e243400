/// Commands and updates given as text, as rules give them: openHAB's `ScriptBusEvent`
/// (`org.openhab.core.model.script.actions.BusEvent` in openHAB 2) parses the text with the Item's
/// accepted command or data types (`TypeParser`) and posts the event on the bus itself — no REST call,
/// no access check. The REST API parses the same way (`ItemResource`), so both use these; REST adds
/// its own `toggle` for Switches first.
extension OpenHABRuntime {
    /// Sends `text`, parsed as a command for Item `name`'s type, to the Item (``sendCommand(_:to:)``).
    /// - Throws: ``SmartHomeError`` `item.notFound`, or `command.invalid` when the text is no command
    ///   the Item's type accepts.
    public func sendCommand(text: String, to name: String) async throws(SmartHomeError) {
        guard let parsed = try? ItemName(name) else { throw Self.noItem(name) }
        try await sendCommand(text: text, to: parsed)
    }

    /// ``sendCommand(text:to:)`` for a name already checked (a rule's, checked once); reads only the Item's type
    /// before ``sendCommand(_:to:)``.
    /// - Throws: as ``sendCommand(text:to:)``.
    public func sendCommand(text: String, to name: ItemName) async throws(SmartHomeError) {
        guard let type = items.type(of: name) else { throw Self.noItem(name.rawValue) }
        guard let command = type.parseCommand(text, in: calendar) else {
            throw SmartHomeError(.invalidCommand, "\"\(text)\" is not a command for the \(type) Item \(name)\(Self.commandHint(type)).")
        }
        try await sendCommand(command, to: name)
    }

    /// Posts `text`, parsed as a state for Item `name`'s type, to the Item (``postUpdate(_:to:)``).
    /// - Throws: ``SmartHomeError`` `item.notFound`, or `state.invalid` when the text is no state of the
    ///   Item's type.
    /// Synchronous: an update applies at once and never waits for a Thing handler.
    public func postUpdate(text: String, to name: String) throws(SmartHomeError) {
        guard let parsed = try? ItemName(name) else { throw Self.noItem(name) }
        try postUpdate(text: text, to: parsed)
    }

    /// ``postUpdate(text:to:)`` for a name already checked (a rule's, checked once): reads only the Item's
    /// type, never copies the Item.
    /// - Throws: as ``postUpdate(text:to:)``.
    public func postUpdate(text: String, to name: ItemName) throws(SmartHomeError) {
        guard let type = items.type(of: name) else { throw Self.noItem(name.rawValue) }
        try postUpdate(text: text, to: name, type: type)
    }

    /// ``postUpdate(text:to:)`` for an Item whose `type` the caller has just read (a rule's update, looked up once).
    /// - Throws: ``SmartHomeError`` `state.invalid` when `text` is no state of `type`.
    public func postUpdate(text: String, to name: ItemName, type: ItemType) throws(SmartHomeError) {
        guard let state = type.parseState(text, in: calendar) else {
            throw SmartHomeError(.invalidState, "State could not be parsed: \(text)")
        }
        post(state, to: name)
    }

    /// Posts `state` to an Item the caller has just looked up, without a text to parse and without suspending: a
    /// rule's number update, whose state ``ItemType/numberState(_:)`` made as ``ItemType/parseState(_:in:)`` would
    /// make it of the number's text (openHAB's `postUpdate(Item, Number)` posts `number.toString()`).
    public func postUpdateNow(_ state: State, to name: ItemName) {
        post(state, to: name)
    }

    /// The Item called `name` (as a URL path or a rule gives it).
    /// - Throws: ``SmartHomeError`` `item.notFound` — also for a name that is not a valid Item name.
    func existingItem(_ name: String) throws(SmartHomeError) -> Item {
        guard let parsed = try? ItemName(name), let item = items.lookup(parsed) else { throw Self.noItem(name) }
        return item
    }

    /// The state of the Item called `name`, without copying the Item.
    /// - Throws: as ``existingItem(_:)``.
    func existingState(_ name: String) throws(SmartHomeError) -> State {
        guard let parsed = try? ItemName(name), let state = items.state(of: parsed) else { throw Self.noItem(name) }
        return state
    }

    /// openHAB's 404 for an Item name.
    private static func noItem(_ name: String) -> SmartHomeError {
        SmartHomeError(.itemNotFound, "Item \(name) does not exist!")
    }

    /// What to send instead, named in a refused command's message.
    static func commandHint(_ type: ItemType) -> String {
        switch type {
        case .switchItem: return "; send ON, OFF or toggle (upper-case, as openHAB; toggle over REST only)"
        case .contactItem: return "; a Contact accepts only REFRESH (OPEN/CLOSED are states)"
        case .numberItem(let d?) where d.defaultUnit == .one: return "; send a number such as 0.5 or a quantity such as \"50 %\""
        case .numberItem(let d?): return "; send a number or a quantity such as \"21.5 \(d.defaultUnit.symbol)\""
        case .numberItem(nil): return "; send a number such as 21.5"
        case .dimmerItem: return "; send 0–100, ON, OFF, INCREASE or DECREASE"
        case .stringItem, .groupItem: return ""
        case .dateTimeItem: return "; send a date-time such as 2026-01-09T15:00:00.000+0100"
        case .rollershutterItem: return "; send UP, DOWN, STOP, MOVE or 0–100"
        case .colorItem: return "; send h,s,b (such as 120,100,50), 0–100, ON, OFF, INCREASE or DECREASE"
        case .locationItem: return "; send latitude,longitude[,altitude]"
        case .playerItem: return "; send PLAY, PAUSE, NEXT, PREVIOUS, REWIND or FASTFORWARD"
        case .callItem, .imageItem: return "; it accepts only REFRESH"
        }
    }
}
