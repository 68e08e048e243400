import SmartHome

extension BookingError {
    /// The booking error for a failure of the openHAB seam: openHAB's own codes pass through with
    /// their meaning (`item.notFound`, `command.invalid`, `thing.notFound`, `thing.offline`,
    /// `item.nameInvalid`); anything else becomes `smartHome.failed` quoting openHAB's message.
    init(_ error: SmartHomeError, while doing: String) {
        switch error.code {
        case .itemNotFound: self.init(.itemNotFound, error.message)
        case .invalidCommand: self.init(.commandInvalid, error.message)
        case .thingNotFound: self.init(.thingNotFound, error.message)
        case .thingOffline: self.init(.thingOffline, error.message)
        case .invalidItemName: self.init(.itemNameInvalid, error.message)
        default:
            self.init(.smartHomeFailed,
                      "openHAB refused to \(doing) (HTTP \(error.httpStatus.rawValue), \(error.code.rawValue)): \(error.message)")
        }
    }
}
