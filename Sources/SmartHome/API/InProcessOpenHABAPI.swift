/// The ``OpenHABAPI`` served in-process by an ``OpenHABRuntime``: the same validation,
/// statuses and error bodies as openHAB's REST resources, without a socket.
public struct InProcessOpenHABAPI: OpenHABAPI {
    /// The runtime whose registries answer.
    public let runtime: OpenHABRuntime
    /// The server root used for Item `link` URLs, e.g. `http://localhost:8080`.
    public let baseURL: String
    /// Tokens and roles.
    public let policy: OpenHABAccessPolicy
    /// The credentials this client presents on every call.
    public private(set) var credentials: OpenHABCredentials

    /// A client of `runtime`.
    /// - Parameters:
    ///   - baseURL: the server root for `link` fields (no trailing slash).
    ///   - policy: which tokens the server knows; by default none, with the implicit user role.
    ///   - credentials: what this client sends.
    public init(runtime: OpenHABRuntime, baseURL: String = "http://localhost:8080",
                policy: OpenHABAccessPolicy = OpenHABAccessPolicy(), credentials: OpenHABCredentials = .anonymous) {
        self.runtime = runtime
        self.baseURL = baseURL.hasSuffix("/") ? String(baseURL.dropLast()) : baseURL
        self.policy = policy
        self.credentials = credentials
    }

    /// The same server, called with other credentials.
    public func with(credentials: OpenHABCredentials) -> InProcessOpenHABAPI {
        var api = self  // the base URL as this one has it already (no trailing slash): the router makes one per request
        api.credentials = credentials
        return api
    }

    // MARK: Things

    public func getThings() async throws(SmartHomeError) -> RESTResponse<[EnrichedThingDTO]> {
        try policy.authorize(credentials, needs: .administrator)
        var dtos: [EnrichedThingDTO] = []
        for uid in await runtime.things.uids() {
            if let dto = await thingDTO(uid) { dtos.append(dto) }
        }
        return RESTResponse(.ok, dtos)
    }

    public func getThing(_ uid: String) async throws(SmartHomeError) -> RESTResponse<EnrichedThingDTO> {
        try policy.authorize(credentials, needs: .administrator)
        guard let parsed = try? ThingUID(uid), let dto = await thingDTO(parsed) else {
            throw SmartHomeError(.thingNotFound, "Thing \(uid) does not exist!")
        }
        return RESTResponse(.ok, dto)
    }

    public func getThingStatus(_ uid: String) async throws(SmartHomeError) -> RESTResponse<ThingStatusInfo> {
        try policy.authorize(credentials, needs: .administrator)
        guard let parsed = try? ThingUID(uid), let status = await runtime.things.status(of: parsed) else {
            throw SmartHomeError(.thingNotFound, "Thing \(uid) does not exist!")
        }
        return RESTResponse(.ok, status)
    }

    // MARK: Items

    public func getItems(metadata: String?) async throws(SmartHomeError) -> RESTResponse<[EnrichedItemDTO]> {
        try policy.authorize(credentials, needs: .user)
        let namespaces = MetadataSelector(metadata)
        var dtos: [EnrichedItemDTO] = []
        for item in await runtime.items.all() { dtos.append(await itemDTO(item, namespaces)) }
        return RESTResponse(.ok, dtos)
    }

    public func getItem(_ name: String, metadata: String?) async throws(SmartHomeError) -> RESTResponse<EnrichedItemDTO> {
        try policy.authorize(credentials, needs: .user)
        return RESTResponse(.ok, await itemDTO(try runtime.existingItem(name), MetadataSelector(metadata)))
    }

    public func getItemState(_ name: String) async throws(SmartHomeError) -> RESTResponse<String> {
        try policy.authorize(credentials, needs: .user)
        return RESTResponse(.ok, try runtime.existingState(name).description)
    }

    public func putItem(_ name: String, body: ItemDTO?) async throws(SmartHomeError) -> RESTResponse<EnrichedItemDTO> {
        try policy.authorize(credentials, needs: .administrator)
        guard let body else { throw SmartHomeError(.missingBody, "PUT /rest/items/\(name) needs a JSON body with type and name.") }
        // openHAB compares the names ignoring case and creates the Item under the body's name.
        guard let bodyName = body.name, bodyName.lowercased() == name.lowercased() else {
            throw SmartHomeError(.nameMismatch,
                                 "The body names the Item \"\(body.name ?? "")\" but the path names \"\(name)\"; they must be equal.")
        }
        let itemName = try ItemName(bodyName)
        let type = try ItemType.parse(body.type ?? "")
        if let existing = runtime.items.lookup(itemName), !existing.isManaged {
            throw SmartHomeError(.itemNotManaged, "Cannot update non-managed Item \(bodyName)")
        }
        let item = Item(name: itemName, type: type, label: body.label, category: body.category,
                        tags: body.tags ?? [], groupNames: body.groupNames ?? [])
        let created = await runtime.putItem(item)
        let stored = try runtime.existingItem(bodyName)
        return RESTResponse(created ? .created : .ok, await itemDTO(stored, MetadataSelector(nil)))
    }

    public func deleteItem(_ name: String) async throws(SmartHomeError) -> RESTResponse<NoContent> {
        try policy.authorize(credentials, needs: .administrator)
        // openHAB asks the managed provider to remove it: unknown and file-defined Items are both 404, empty.
        guard let parsed = try? ItemName(name), let item = runtime.items.lookup(parsed) else {
            throw SmartHomeError(.itemNotRemovable, "Item \(name) does not exist.")
        }
        guard item.isManaged else {
            throw SmartHomeError(.itemNotRemovable, "Item \(name) is not managed (defined in a file), so the API cannot remove it.")
        }
        try await runtime.removeItem(item.name)
        return RESTResponse(.ok, NoContent())
    }

    public func putMetadata(_ name: String, namespace: String, body: MetadataDTO?) async throws(SmartHomeError) -> RESTResponse<NoContent> {
        try policy.authorize(credentials, needs: .administrator)
        let item = try await metadataItem(name)
        guard let body else {
            throw SmartHomeError(.missingBody, "PUT /rest/items/\(name)/metadata/\(namespace) needs a JSON body such as {\"value\":\"%\"}.")
        }
        let added = try await runtime.setMetadata(ItemMetadata(value: body.value ?? "", config: body.config ?? [:]),
                                                  namespace: namespace, of: item.name)
        return RESTResponse(added ? .created : .ok, NoContent())
    }

    public func deleteMetadata(_ name: String, namespace: String) async throws(SmartHomeError) -> RESTResponse<NoContent> {
        try policy.authorize(credentials, needs: .administrator)
        let item = try await metadataItem(name)
        guard item.metadata[namespace] != nil else {
            throw SmartHomeError(.metadataNotFound, "Item \(name) has no metadata in the namespace \(namespace).")
        }
        try await runtime.setMetadata(nil, namespace: namespace, of: item.name)
        return RESTResponse(.ok, NoContent())
    }

    /// The Item a metadata call names; openHAB answers 404 with an empty body when there is none.
    private func metadataItem(_ name: String) async throws(SmartHomeError) -> Item {
        guard let parsed = try? ItemName(name), let item = runtime.items.lookup(parsed) else {
            throw SmartHomeError(.metadataNotFound, "Item \(name) does not exist.")
        }
        return item
    }

    public func sendCommand(_ name: String, _ text: String) async throws(SmartHomeError) -> RESTResponse<NoContent> {
        try policy.authorize(credentials, needs: .user)
        let item = try runtime.existingItem(name)
        // openHAB's ItemResource: `toggle` on a Switch (a Dimmer is one) flips the state read as
        // OnOffType; from NULL/UNDEF there is nothing to flip, so the text goes on to fail parsing (400).
        if item.type == .switchItem || item.type == .dimmerItem, text.lowercased() == "toggle",
           let current = Self.onOff(item.state) {
            try await runtime.sendCommand(.onOff(current == .on ? .off : .on), to: item.name)
        } else {
            try await runtime.sendCommand(text: text, to: name)
        }
        return RESTResponse(.ok, NoContent())
    }

    /// A state read as `OnOffType` (`State.as(OnOffType.class)`): a percent is ON above 0; `nil` for NULL/UNDEF.
    private static func onOff(_ state: State) -> OnOff? {
        switch state {
        case .onOff(let value): return value
        case .percent(let n): return n.value > 0 ? .on : .off
        default: return nil
        }
    }

    public func updateState(_ name: String, _ text: String) async throws(SmartHomeError) -> RESTResponse<NoContent> {
        try policy.authorize(credentials, needs: .user)
        try runtime.postUpdate(text: text, to: name)
        return RESTResponse(.accepted, NoContent())
    }

    // MARK: Links

    public func getLinks() async throws(SmartHomeError) -> RESTResponse<[ItemChannelLinkDTO]> {
        try policy.authorize(credentials, needs: .administrator)
        return RESTResponse(.ok, await runtime.links.all().map(ItemChannelLinkDTO.init))
    }

    public func putLink(itemName: String, channelUID: String,
                        body: ItemChannelLinkDTO?) async throws(SmartHomeError) -> RESTResponse<NoContent> {
        try policy.authorize(credentials, needs: .administrator)
        if let body, body.itemName != itemName || body.channelUID != channelUID {
            throw SmartHomeError(.invalidLink,
                                 "Link body \(body.itemName) -> \(body.channelUID) does not match the path \(itemName) -> \(channelUID).")
        }
        guard let parsed = try? ItemName(itemName), let item = runtime.items.lookup(parsed) else {
            throw SmartHomeError(.invalidLink, "Item \(itemName) does not exist; create it with PUT /rest/items/\(itemName) first.")
        }
        let uid: ChannelUID
        do { uid = try ChannelUID(channelUID) } catch {
            throw SmartHomeError(.invalidLink, "Channel UID \(channelUID) is malformed: \(error.message)")
        }
        guard let channel = await runtime.things.channel(uid) else {
            throw SmartHomeError(.invalidLink, "Channel \(channelUID) does not exist; GET /rest/things lists every channel UID.")
        }
        // The link keeps the registries' own name and UID values: equal text read from a request path
        // is a separate string, and every state update looks links up by these keys (shared storage
        // compares by pointer; a copy compares byte by byte).
        let link = ItemChannelLink(itemName: item.name, channelUID: channel.uid, configuration: body?.configuration ?? [:])
        if channel.kind == .trigger, link.configuration["profile"] == "system:default" {
            throw SmartHomeError(.invalidLink, "Trigger channel \(channelUID) needs a trigger profile, not system:default.")
        }
        try await runtime.link(link)
        return RESTResponse(.ok, NoContent())
    }

    public func deleteLink(itemName: String, channelUID: String) async throws(SmartHomeError) -> RESTResponse<NoContent> {
        try policy.authorize(credentials, needs: .administrator)
        let notFound = SmartHomeError(.linkNotFound, "Link \(itemName) -> \(channelUID) does not exist!")
        let uid: ChannelUID
        do { uid = try ChannelUID(channelUID) } catch {
            throw SmartHomeError(.invalidLink, "Channel UID \(channelUID) is malformed: \(error.message)")
        }
        guard let name = try? ItemName(itemName) else { throw notFound }
        do { try await runtime.unlink(name, uid) } catch { throw notFound }
        return RESTResponse(.ok, NoContent())
    }

    // MARK: Helpers

    private func itemDTO(_ item: Item, _ namespaces: MetadataSelector) async -> EnrichedItemDTO {
        var description: StateDescription?
        if let first = runtime.links.linkedChannels(item.name).first {
            description = await runtime.things.channel(first)?.stateDescription
        }
        return EnrichedItemDTO(item, baseURL: baseURL, stateDescription: description, metadataNamespaces: namespaces.matches)
    }

    /// The DTO of Thing `uid` with its linked Items, from the runtime's cache when nothing changed since
    /// it was built; `nil` if there is no such Thing.
    private func thingDTO(_ uid: ThingUID) async -> EnrichedThingDTO? {
        let cache = runtime.thingDTOs
        let (kept, revision) = cache.lookup(uid)
        if let kept { return kept }
        guard let thing = await runtime.things.thing(uid) else { return nil }
        var linked: [ChannelUID: [ItemName]] = [:]
        for channel in thing.channels { linked[channel.uid] = await runtime.links.items(linkedTo: channel.uid) }
        let dto = EnrichedThingDTO(thing, linkedItems: linked)
        cache.store(dto, for: uid, ifRevision: revision)
        return dto
    }
}
