/// `GET /rest/items/{name}/metadata/namespaces` (openHAB's `ItemResource.getItemNamespaces`).
extension InProcessOpenHABAPI {
    /// The metadata namespaces `name` has, sorted. - Throws: `item.notFound` (404) for no such Item.
    public func getItemNamespaces(_ name: String) async throws(SmartHomeError) -> RESTResponse<[String]> {
        try policy.authorize(credentials, needs: .user)
        return RESTResponse(.ok, try runtime.existingItem(name).metadata.keys.sorted())
    }
}
