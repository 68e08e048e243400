/// Home configurations stored in the `home_configurations` table, their Items in `home_configuration_items`.
extension BookingStore: HomeConfigurationRepository {
    /// Stores a new configuration with its Items in one transaction.
    /// - Throws: `configuration.invalid` when the id is taken or empty, `listing.notFound` for an unknown listing.
    public func insert(_ configuration: HomeConfiguration) async throws(BookingError) {
        try write { database throws(BookingError) in
            guard !configuration.id.rawValue.isEmpty else {
                throw BookingError(.configurationInvalid,
                                   "A home configuration of listing \"\(configuration.listing)\" has an empty id; give it an id such as \"\(configuration.listing)-\(configuration.name)\".")
            }
            _ = try database.requireListing(configuration.listing)
            guard try !database.exists("SELECT 1 FROM home_configurations WHERE id = ?", .id(configuration.id)) else {
                throw BookingError(.configurationInvalid,
                                   "A home configuration with id \"\(configuration.id)\" already exists; choose another id for \"\(configuration.name)\" of listing \"\(configuration.listing)\".")
            }
            try database.execute(
                "INSERT INTO home_configurations (id, listing_id, type, name, thing_uid) VALUES (?, ?, ?, ?, ?)",
                .id(configuration.id), .id(configuration.listing), .text(configuration.type.rawValue),
                .text(configuration.name), .text(configuration.thingUID))
            for (property, item) in configuration.items.sorted(by: { $0.key < $1.key }) {
                try database.execute(
                    "INSERT INTO home_configuration_items (configuration_id, property, item_name) VALUES (?, ?, ?)",
                    .id(configuration.id), .text(property), .text(item))
            }
        }
    }

    /// The configuration with that id, or `configuration.notFound`.
    public func configuration(_ id: HomeConfigurationID) async throws(BookingError) -> HomeConfiguration {
        try read { database throws(BookingError) in
            let rows = try database.query(
                "SELECT id, listing_id, type, name, thing_uid FROM home_configurations WHERE id = ?", .id(id),
                row: Self.decodeConfiguration)
            guard let row = rows.first else {
                throw BookingError(.configurationNotFound,
                                   "No home configuration has the id \"\(id)\"; list a listing's configurations to find the right id.")
            }
            return try Self.withItems(row, database)
        }
    }

    /// A listing's configurations sorted by name, then id (empty for a listing without any).
    public func configurations(ofListing id: ListingID) async throws(BookingError) -> [HomeConfiguration] {
        try read { database throws(BookingError) in
            let rows = try database.query(
                "SELECT id, listing_id, type, name, thing_uid FROM home_configurations WHERE listing_id = ? ORDER BY name, id",
                .id(id), row: Self.decodeConfiguration)
            var result: [HomeConfiguration] = []
            for row in rows { result.append(try Self.withItems(row, database)) }
            return result
        }
    }

    /// Reads a configuration row (without its Items).
    private static func decodeConfiguration(_ row: Statement) throws(BookingError) -> HomeConfiguration {
        let typeText = try row.string(2)
        guard let type = HomeConfigurationType(rawValue: typeText) else {
            throw BookingError(.storeFailed,
                               "A home configuration stores the unknown type \"\(typeText)\"; the database is damaged — restore it from a backup.")
        }
        return HomeConfiguration(id: HomeConfigurationID(try row.string(0)), listing: ListingID(try row.string(1)),
                                 type: type, name: try row.string(3), thingUID: try row.string(4), items: [:])
    }

    /// Fills in the Items of a configuration read by ``decodeConfiguration(_:)``.
    private static func withItems(_ configuration: HomeConfiguration, _ database: SQLiteDatabase)
        throws(BookingError) -> HomeConfiguration
    {
        var complete = configuration
        let pairs = try database.query(
            "SELECT property, item_name FROM home_configuration_items WHERE configuration_id = ? ORDER BY property",
            .id(configuration.id)
        ) { row throws(BookingError) in (try row.string(0), try row.string(1)) }
        for (property, item) in pairs { complete.items[property] = item }
        return complete
    }
}
