import Simulation
import SmartHome

/// The smart-home side of the booking system (the original's `HomeController`/`HomeService`):
/// builds a listing's virtual openHAB layer, lists its devices and their states, and lets owners
/// and guests operate them — guests only during their stay, and every lock operation audited.
///
/// It sees openHAB only through ``OpenHABAPI`` (the same calls a production deployment makes over
/// HTTP) and reservations only through ``StayDirectory``.
///
/// ## Who may operate what
/// - The listing's owner: always.
/// - A guest: while `now` lies in `[check-in − earlyCheckIn, check-out + lateCheckOut)` of one of
///   their non-cancelled reservations of that listing (``LockAccessWindow``; moments DST-correct in
///   the listing's time zone). The same window applies to the other devices of the listing.
/// - Anyone else: never (`lock.accessDenied` for locks, `device.accessDenied` for other devices).
///
/// A command to a device whose Thing is not ONLINE is refused with `thing.offline` before it is
/// sent (openHAB itself would accept it and leave the Item unchanged). Every lock operation —
/// allowed, denied or failed — is appended to the ``LockAuditRepository`` with who, when, what,
/// the outcome and the reason; the only exception is an Item name that names no listing at all.
public actor HomeService {
    /// The unit each channel type hints at, for the `unit` metadata of its Item: openHAB's UI sets it
    /// from the channel type's unit hint, so a battery level reads `99.94 %`, not the ONE of a bare
    /// `Number:Dimensionless` (`0.9994`).
    static let unitHints = ["twin:battery": "%"]

    /// The unit Main UI writes as `unit` metadata when it creates a `Number:Dimension` Item: the
    /// dimension's system unit (°C, W, kWh, one); `nil` for other types.
    static func systemUnit(of itemType: String) -> String? {
        guard case .numberItem(let dimension?)? = try? ItemType.parse(itemType) else { return nil }
        return dimension.defaultUnit.symbol
    }

    /// The access buffers around each stay.
    public nonisolated let access: LockAccessWindow
    private let api: any OpenHABAPI
    private let stays: any StayDirectory
    private let configurations: any HomeConfigurationRepository
    private let audit: any LockAuditRepository
    private let clock: BookingClock
    /// Item name → configuration, for every configuration this service has created or read.
    private var itemIndex: [String: HomeConfigurationID] = [:]

    /// Creates the service.
    /// - Parameters:
    ///   - api: the openHAB REST API (needs an administrator token: it reads Things and creates Items and links).
    ///   - stays: listings and reservations, for the access windows.
    ///   - configurations: where home configurations are stored.
    ///   - audit: where lock operations are logged.
    ///   - clock: the simulated clock.
    ///   - access: the early check-in / late check-out buffers (default none).
    public init(api: any OpenHABAPI, stays: any StayDirectory, configurations: any HomeConfigurationRepository,
                audit: any LockAuditRepository, clock: BookingClock, access: LockAccessWindow = LockAccessWindow()) {
        self.api = api
        self.stays = stays
        self.configurations = configurations
        self.audit = audit
        self.clock = clock
        self.access = access
    }

    // MARK: Types

    /// The supported configuration types (the original's `getConfigurationTypes`).
    public nonisolated func configurationTypes() -> [HomeConfigurationType] { HomeConfigurationType.allCases }

    /// The properties (channel ids) of a configuration type, in display order
    /// (the original's `getConfigurationTypeProperties`).
    public nonisolated func properties(of type: HomeConfigurationType) -> [String] { type.properties }

    // MARK: Creating

    /// Adds a device to a listing by building its virtual layer in openHAB, as the original did:
    /// `GET /rest/things/{thingUID}` (on 404, `GET /rest/things` to name the known Things in the
    /// error; the original listed every Thing each time, which over bytes costs O(Things) per
    /// device) → for each STATE channel `PUT /rest/items/{name}` with the
    /// channel's item type, where `name` is ``ItemName/init(path:)`` of `listing/deviceID/channel` →
    /// `PUT /rest/links/{name}/{channelUID}`; then stores a ``HomeConfiguration`` with id `listing/deviceID`.
    ///
    /// A `weatherWatcher` configuration is an automation, not a device: it is stored without Items
    /// (and `thingUID` may be empty).
    /// - Returns: the stored configuration.
    /// - Throws: `listing.notFound`; `configuration.invalid` for an empty device id, an existing
    ///   configuration id or a Thing that lacks one of the type's channels; `thing.notFound`; the
    ///   openHAB errors of the calls (see ``BookingError``).
    public func createConfiguration(listing listingID: ListingID, type: HomeConfigurationType, deviceID: String,
                                    thingUID: String) async throws(BookingError) -> HomeConfiguration {
        let listing = try await stays.listing(listingID)
        guard !deviceID.isEmpty, !deviceID.contains("/") else {
            throw BookingError(.configurationInvalid,
                               "The device id \"\(deviceID)\" of listing \(listingID) is empty or contains \"/\"; use a short id such as \"heating\".")
        }
        let id = HomeConfigurationID("\(listingID.rawValue)/\(deviceID)")
        if (try? await configurations.configuration(id)) != nil {
            throw BookingError(.configurationInvalid,
                               "Listing \(listingID) already has a device \"\(deviceID)\" (configuration \(id)); choose another device id.")
        }
        var items: [String: String] = [:]
        if type != .weatherWatcher {
            let thing: EnrichedThingDTO
            do {
                thing = try await api.getThing(thingUID).body
            } catch where error.code == .thingNotFound {
                let things = try await call("list the Things (GET /rest/things)") { () async throws(SmartHomeError) in
                    try await api.getThings().body
                }
                let known = things.map(\.uid).sorted().joined(separator: ", ")
                throw BookingError(.thingNotFound,
                                   "openHAB has no Thing \(thingUID) to add as \(id); known Things: \(known.isEmpty ? "none" : known).")
            } catch {
                throw BookingError(error, while: "read the Thing \(thingUID) (GET /rest/things/\(thingUID))")
            }
            let channelIDs = Set(thing.channels.map(\.id))
            let missing = type.properties.filter { !channelIDs.contains($0) }
            guard missing.isEmpty else {
                throw BookingError(.configurationInvalid,
                                   "Thing \(thingUID) cannot be a \(type.rawValue) device: it has no channel \(missing.joined(separator: ", ")); a \(type.rawValue) needs \(type.properties.joined(separator: ", ")).")
            }
            for channel in thing.channels where channel.kind == "STATE" {
                guard let itemType = channel.itemType else { continue }
                let name: String
                do {
                    name = try ItemName(path: "\(listingID.rawValue)/\(deviceID)/\(channel.id)").rawValue
                } catch {
                    throw BookingError(error, while: "name the Item of \(listingID)/\(deviceID)/\(channel.id)")
                }
                let label = "\(listing.name) \(deviceID) \(channel.label ?? channel.id)"
                _ = try await call("create the Item \(name) (PUT /rest/items/\(name))") { () async throws(SmartHomeError) in
                    try await api.putItem(name, body: ItemDTO(type: itemType, name: name, label: label))
                }
                if let unit = channel.channelTypeUID.flatMap({ Self.unitHints[$0] }) ?? Self.systemUnit(of: itemType) {
                    _ = try await call("give \(name) the unit \(unit) (PUT /rest/items/\(name)/metadata/unit)") { () async throws(SmartHomeError) in
                        try await api.putMetadata(name, namespace: "unit", body: MetadataDTO(value: unit))
                    }
                }
                _ = try await call("link \(name) to \(channel.uid) (PUT /rest/links)") { () async throws(SmartHomeError) in
                    try await api.putLink(itemName: name, channelUID: channel.uid,
                                          body: ItemChannelLinkDTO(itemName: name, channelUID: channel.uid))
                }
                items[channel.id] = name
            }
        }
        let configuration = HomeConfiguration(id: id, listing: listingID, type: type, name: deviceID,
                                              thingUID: thingUID, items: items)
        try await configurations.insert(configuration)
        index(configuration)
        return configuration
    }

    // MARK: Reading

    /// A listing's devices (configurations), sorted by name (the original's `getAllItems`).
    /// - Throws: `listing.notFound`.
    public func devices(ofListing listingID: ListingID) async throws(BookingError) -> [HomeConfiguration] {
        _ = try await stays.listing(listingID)
        let found = try await configurations.configurations(ofListing: listingID)
        for configuration in found { index(configuration) }
        return found.sorted { ($0.name, $0.id) < ($1.name, $1.id) }
    }

    /// One device (the original's `getItem`).
    /// - Throws: `configuration.notFound`.
    public func device(_ id: HomeConfigurationID) async throws(BookingError) -> HomeConfiguration {
        let configuration = try await configurations.configuration(id)
        index(configuration)
        return configuration
    }

    /// A device's properties with their Items and current states, in the type's property order
    /// (extra channels follow, sorted) — the original's `getConfigurationProperties`.
    /// - Throws: `configuration.notFound`, `item.notFound` if an Item was deleted behind the service's back.
    public func propertyStates(of id: HomeConfigurationID) async throws(BookingError) -> [HomePropertyState] {
        let configuration = try await device(id)
        var result: [HomePropertyState] = []
        for property in Self.orderedProperties(of: configuration) {
            guard let item = configuration.items[property] else { continue }
            let state = try await call("read the state of \(item)") { () async throws(SmartHomeError) in
                try await api.getItemState(item).body
            }
            result.append(HomePropertyState(property: property, item: item, state: state))
        }
        return result
    }

    /// The lock audit log, in order of appending, optionally of one listing only.
    public func lockAudit(listing: ListingID? = nil) async throws(BookingError) -> [LockAuditEntry] {
        try await audit.entries(listing: listing)
    }

    // MARK: Operating

    /// Switches a device's `switch` Item ON or OFF (the original's `switchItem`); for a lock,
    /// ON locks and OFF unlocks, through ``operateLock(item:operation:by:)``'s rules and audit.
    /// - Throws: `configuration.notFound`, `property.notFound` (no switch), `device.accessDenied`,
    ///   `lock.accessDenied`, `thing.offline`, openHAB's errors.
    public func setSwitch(configuration id: HomeConfigurationID, on: Bool, by user: UserID) async throws(BookingError) {
        let configuration = try await device(id)
        if configuration.type == .lock {
            try await operate(lock: configuration, operation: on ? .lock : .unlock, by: user)
            return
        }
        try await command(configuration, property: "switch", value: on ? "ON" : "OFF", by: user)
    }

    /// Sends an openHAB command string (`"ON"`, `"22"`, `"22.5 °C"`) to one property of a device
    /// (the original's `setPropertyState`). A lock's `lock` property goes through the lock rules and audit
    /// (`ON` locks, `OFF` unlocks).
    /// - Throws: `configuration.notFound`, `property.notFound`, `device.accessDenied`, `lock.accessDenied`,
    ///   `command.invalid` (also for read-only properties such as `temperature`), `thing.offline`.
    public func setProperty(configuration id: HomeConfigurationID, property: String, value: String,
                            by user: UserID) async throws(BookingError) {
        let configuration = try await device(id)
        if configuration.type == .lock, property == "lock" {
            switch value {
            case "ON": try await operate(lock: configuration, operation: .lock, by: user)
            case "OFF": try await operate(lock: configuration, operation: .unlock, by: user)
            default:
                throw BookingError(.commandInvalid,
                                   "\"\(value)\" is not a command for the lock of \(configuration.id); send ON to lock or OFF to unlock.")
            }
            return
        }
        try await command(configuration, property: property, value: value, by: user)
    }

    /// Locks or unlocks a lock, named by its `lock` channel path (`flat-1/door/lock`) or by its openHAB
    /// Item name (`flat_1_door_lock`, for configurations this service has created or read).
    ///
    /// The path leads to the configuration `flat-1/door` and so to the listing; the owner may always,
    /// a guest within ``LockAccessWindow`` of a non-cancelled reservation, anyone else never. The lock's
    /// Thing must be ONLINE. Every attempt is audited — allowed, denied or failed — with its reason.
    /// - Returns: the audit entry of the allowed operation.
    /// - Throws: `item.notFound` (no such lock Item), `listing.notFound`, `lock.accessDenied`,
    ///   `thing.offline`, `thing.notFound`, openHAB's errors.
    @discardableResult
    public func operateLock(item: String, operation: LockAuditEntry.Operation,
                            by user: UserID) async throws(BookingError) -> LockAuditEntry {
        let configuration: HomeConfiguration
        do {
            configuration = try await resolveLock(item)
        } catch {
            if let listing = Self.listing(ofPath: item) {
                try await audit.append(LockAuditEntry(at: clock.now, listing: listing, item: item, user: user,
                                                      operation: operation, outcome: .failed,
                                                      reason: "\(error.code.rawValue): \(error.message)"))
            }
            throw error
        }
        return try await operate(lock: configuration, operation: operation, by: user)
    }

    // MARK: Private

    /// The lock rules and the audit, for a resolved lock configuration.
    @discardableResult
    private func operate(lock configuration: HomeConfiguration, operation: LockAuditEntry.Operation,
                         by user: UserID) async throws(BookingError) -> LockAuditEntry {
        let now = clock.now
        let item = configuration.items["lock"] ?? ""
        func entry(_ outcome: LockAuditEntry.Outcome, _ reason: String) -> LockAuditEntry {
            LockAuditEntry(at: now, listing: configuration.listing, item: item, user: user, operation: operation,
                           outcome: outcome, reason: reason)
        }
        let decision: AccessDecision
        do throws(BookingError) {
            guard !item.isEmpty else {
                throw BookingError(.itemNotFound, "The lock \(configuration.id) has no lock Item; recreate the configuration.")
            }
            let listing = try await stays.listing(configuration.listing)
            decision = try await decide(user, at: listing, now: now)
        } catch {
            try await audit.append(entry(.failed, "\(error.code.rawValue): \(error.message)"))
            throw error
        }
        guard decision.allowed else {
            try await audit.append(entry(.denied, decision.reason))
            throw BookingError(.lockAccessDenied,
                               "\(user) may not \(operation.rawValue) \(configuration.id) now: \(decision.reason). Guests may use the lock from check-in\(Self.buffer(access.earlyCheckIn, "minus")) to check-out\(Self.buffer(access.lateCheckOut, "plus")) of their stay; the owner always.")
        }
        do {
            try await requireOnline(configuration)
            _ = try await call("send \(operation == .lock ? "ON" : "OFF") to \(item)") { () async throws(SmartHomeError) in
                try await api.sendCommand(item, operation == .lock ? "ON" : "OFF")
            }
        } catch {
            try await audit.append(entry(.failed, "\(decision.reason); \(error.code.rawValue): \(error.message)"))
            throw error
        }
        let allowed = entry(.allowed, decision.reason)
        try await audit.append(allowed)
        return allowed
    }

    /// Sends `value` to a non-lock device property after the access, read-only and online checks.
    private func command(_ configuration: HomeConfiguration, property: String, value: String,
                         by user: UserID) async throws(BookingError) {
        guard let item = configuration.items[property] else {
            let known = Self.orderedProperties(of: configuration).joined(separator: ", ")
            throw BookingError(.propertyNotFound,
                               "The \(configuration.type.rawValue) \(configuration.id) has no property \"\(property)\"; it has \(known.isEmpty ? "none" : known).")
        }
        let listing = try await stays.listing(configuration.listing)
        let decision = try await decide(user, at: listing, now: clock.now)
        guard decision.allowed else {
            throw BookingError(.deviceAccessDenied,
                               "\(user) may not operate \(configuration.id) now: \(decision.reason). Guests may use a listing's devices during their stay; the owner always.")
        }
        let dto = try await call("read the Item \(item)") { () async throws(SmartHomeError) in try await api.getItem(item).body }
        if dto.stateDescription?.readOnly == true {
            throw BookingError(.commandInvalid,
                               "The property \"\(property)\" of \(configuration.id) (Item \(item)) is read-only; it reports the device's state and takes no commands.")
        }
        // openHAB takes a quantity of another dimension as a command (200) and the device ignores it:
        // the service refuses it rather than report success for a command that does nothing.
        if case .numberItem(let dimension?)? = ItemType(rawValue: dto.type), let quantity = Quantity(parsing: value),
           quantity.unit.dimension != dimension {
            throw BookingError(.commandInvalid,
                               "\"\(value)\" is not a \(dimension.rawValue.lowercased()) for the property \"\(property)\" of \(configuration.id) (Item \(item), \(dto.type)); openHAB would accept it and the device would ignore it. Send a number or a quantity such as \"21.5 \(dto.unitSymbol ?? dimension.defaultUnit.symbol)\".")
        }
        try await requireOnline(configuration)
        _ = try await call("send \"\(value)\" to \(item)") { () async throws(SmartHomeError) in
            try await api.sendCommand(item, value)
        }
    }

    /// Whether `user` may operate the devices of `listing` at `now`, and why.
    private func decide(_ user: UserID, at listing: Listing, now: SimInstant) async throws(BookingError) -> AccessDecision {
        if user == listing.owner { return AccessDecision(allowed: true, reason: "owner") }
        let calendar = try listing.calendar()
        let theirs = try await stays.reservations(ofListing: listing.id).filter { $0.guest == user }
            .sorted { ($0.checkIn, $0.id) < ($1.checkIn, $1.id) }
        let live = theirs.filter { $0.status.holdsNights }
        var windows: [String] = []
        for reservation in live {
            let window = access.interval(of: reservation, at: listing, calendar: calendar)
            let text = "\(calendar.localDateTime(at: window.lowerBound))…\(calendar.localDateTime(at: window.upperBound))"
            if window.contains(now) { return AccessDecision(allowed: true, reason: "guest of \(reservation.id) within \(text)") }
            windows.append("\(reservation.id) \(text)")
        }
        if theirs.isEmpty {
            return AccessDecision(allowed: false, reason: "not the owner and no reservation at \(listing.id)")
        }
        if live.isEmpty {
            let ids = theirs.map(\.id.rawValue).joined(separator: ", ")
            return AccessDecision(allowed: false, reason: "only cancelled reservations at \(listing.id) (\(ids))")
        }
        return AccessDecision(allowed: false,
                              reason: "no stay covers now (\(calendar.localDateTime(at: now)); \(windows.joined(separator: ", ")))")
    }

    /// Refuses with `thing.offline` unless the configuration's Thing is ONLINE.
    private func requireOnline(_ configuration: HomeConfiguration) async throws(BookingError) {
        guard !configuration.thingUID.isEmpty else { return }
        let uid = configuration.thingUID
        // The status alone (`GET /rest/things/{uid}/status`), not the whole Thing with its channels.
        let info = try await call("read the status of Thing \(uid)") { () async throws(SmartHomeError) in try await api.getThingStatus(uid).body }
        guard info.status == .online else {
            let detail = info.statusDetail == .none ? "" : " (\(info.statusDetail.rawValue))"
            throw BookingError(.thingOffline,
                               "The device \(configuration.id) (Thing \(uid)) is \(info.status.rawValue)\(detail); nothing was sent. Try again when it is back online.")
        }
    }

    /// The lock configuration an Item path or name stands for.
    private func resolveLock(_ item: String) async throws(BookingError) -> HomeConfiguration {
        let parts = item.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
        let notALock = BookingError(.itemNotFound,
                                    "\(item) is not the lock Item of a lock; name a lock's lock channel as listing/device/lock, e.g. flat-1/door/lock.")
        let configuration: HomeConfiguration
        let channel: String
        if parts.count == 3 {
            let id = HomeConfigurationID("\(parts[0])/\(parts[1])")
            do {
                configuration = try await device(id)
            } catch {
                guard error.code == .configurationNotFound else { throw error }
                throw BookingError(.itemNotFound, "Item \(item) does not exist: listing \(parts[0]) has no device \(parts[1]).")
            }
            channel = parts[2]
        } else if parts.count == 1, let id = itemIndex[item] {
            configuration = try await device(id)
            guard let property = configuration.items.first(where: { $0.value == item })?.key else { throw notALock }
            channel = property
        } else {
            throw BookingError(.itemNotFound,
                               "Item \(item) does not exist or belongs to no listing; name a lock's lock channel as listing/device/lock, e.g. flat-1/door/lock.")
        }
        guard configuration.type == .lock, channel == "lock", configuration.items["lock"] != nil else { throw notALock }
        return configuration
    }

    /// Runs one openHAB call, turning its error into the matching ``BookingError``.
    private func call<T>(_ what: String, _ body: () async throws(SmartHomeError) -> T) async throws(BookingError) -> T {
        do {
            return try await body()
        } catch {
            throw BookingError(error, while: what)
        }
    }

    private func index(_ configuration: HomeConfiguration) {
        for item in configuration.items.values { itemIndex[item] = configuration.id }
    }

    /// The type's properties that the configuration has, then any extra ones sorted.
    static func orderedProperties(of configuration: HomeConfiguration) -> [String] {
        let known = configuration.type.properties.filter { configuration.items[$0] != nil }
        let extra = configuration.items.keys.filter { !configuration.type.properties.contains($0) }.sorted()
        return known + extra
    }

    /// The listing id a `listing/device/channel` path names, if it is a path.
    static func listing(ofPath item: String) -> ListingID? {
        let parts = item.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count >= 2, let first = parts.first, !first.isEmpty else { return nil }
        return ListingID(String(first))
    }

    private static func buffer(_ duration: SimDuration, _ word: String) -> String {
        duration == .zero ? "" : " \(word) \(duration)"
    }
}
