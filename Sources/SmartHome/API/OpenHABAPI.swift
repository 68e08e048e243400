/// The REST calls the booking services make to openHAB, as typed Swift operations.
///
/// Each method mirrors one REST endpoint; success returns the status openHAB answers with
/// (200/201/202) and the body; failure throws ``SmartHomeError``, whose ``SmartHomeError/httpStatus``
/// and ``SmartHomeError/responseBody`` are what openHAB would send (400/401/403/404/405).
/// Names and UIDs arrive as raw strings, as in a URL path, so that invalid ones produce
/// openHAB's errors. Two implementations: ``InProcessOpenHABAPI`` answers from the twin's
/// registries directly, and ``OpenHABRESTClient`` encodes each call to bytes and sends it through an
/// ``OpenHABTransport`` — in a simulation to an ``OpenHABRouter`` over the twin, or over HTTP to a
/// real openHAB. The booking services use the client, so they cannot tell which.
public protocol OpenHABAPI: Sendable {
    /// `GET /rest/things` — every Thing with its channels (admin).
    func getThings() async throws(SmartHomeError) -> RESTResponse<[EnrichedThingDTO]>
    /// `GET /rest/things/{uid}` (admin).
    func getThing(_ uid: String) async throws(SmartHomeError) -> RESTResponse<EnrichedThingDTO>
    /// `GET /rest/things/{uid}/status` — the Thing's status info alone (admin), as openHAB 5's
    /// `ThingResource.getStatus` answers: `{"status":"ONLINE","statusDetail":"NONE"}`.
    func getThingStatus(_ uid: String) async throws(SmartHomeError) -> RESTResponse<ThingStatusInfo>
    /// `GET /rest/items?metadata=…` — every Item, sorted by name, with the metadata namespaces the
    /// selector names (comma-separated names or regular expressions; `nil`: none).
    func getItems(metadata: String?) async throws(SmartHomeError) -> RESTResponse<[EnrichedItemDTO]>
    /// `GET /rest/items/{name}?metadata=…`.
    func getItem(_ name: String, metadata: String?) async throws(SmartHomeError) -> RESTResponse<EnrichedItemDTO>
    /// `GET /rest/items/{name}/state` — the state as plain text.
    func getItemState(_ name: String) async throws(SmartHomeError) -> RESTResponse<String>
    /// `PUT /rest/items/{name}` — create (201) or update (200) a managed Item (admin).
    func putItem(_ name: String, body: ItemDTO?) async throws(SmartHomeError) -> RESTResponse<EnrichedItemDTO>
    /// `DELETE /rest/items/{name}` (admin).
    func deleteItem(_ name: String) async throws(SmartHomeError) -> RESTResponse<NoContent>
    /// `POST /rest/items/{name}` with a text/plain command.
    func sendCommand(_ name: String, _ command: String) async throws(SmartHomeError) -> RESTResponse<NoContent>
    /// `PUT /rest/items/{name}/state` with a text/plain state (202).
    func updateState(_ name: String, _ state: String) async throws(SmartHomeError) -> RESTResponse<NoContent>
    /// `PUT /rest/items/{name}/metadata/{namespace}` — 201 added, 200 replaced (admin).
    func putMetadata(_ name: String, namespace: String, body: MetadataDTO?) async throws(SmartHomeError) -> RESTResponse<NoContent>
    /// `DELETE /rest/items/{name}/metadata/{namespace}` (admin).
    func deleteMetadata(_ name: String, namespace: String) async throws(SmartHomeError) -> RESTResponse<NoContent>
    /// `GET /rest/links` (admin).
    func getLinks() async throws(SmartHomeError) -> RESTResponse<[ItemChannelLinkDTO]>
    /// `PUT /rest/links/{item}/{channelUID}` (admin).
    func putLink(itemName: String, channelUID: String, body: ItemChannelLinkDTO?) async throws(SmartHomeError) -> RESTResponse<NoContent>
    /// `DELETE /rest/links/{item}/{channelUID}` (admin).
    func deleteLink(itemName: String, channelUID: String) async throws(SmartHomeError) -> RESTResponse<NoContent>
}

extension OpenHABAPI {
    /// `GET /rest/items`, without metadata.
    public func getItems() async throws(SmartHomeError) -> RESTResponse<[EnrichedItemDTO]> { try await getItems(metadata: nil) }
    /// `GET /rest/items/{name}`, without metadata.
    public func getItem(_ name: String) async throws(SmartHomeError) -> RESTResponse<EnrichedItemDTO> { try await getItem(name, metadata: nil) }
}
