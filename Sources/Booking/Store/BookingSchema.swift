/// The schema of the booking database as a list of migrations.
///
/// Instants are stored as unix milliseconds (`…_ms`), dates as days since 1970-01-01
/// (`…_day`, so overlaps are integer comparisons), local times as milliseconds of the day.
/// Append new steps at the end; never edit a released one.
enum BookingSchema {
    /// Every migration, oldest first.
    static let migrations: [Migration] = [core, home]

    /// Version 1: users, listings, reservations, conversations, messages, ratings and id sequences.
    static let core = Migration(version: 1, name: "users, listings, reservations, conversations, messages, ratings", statements: [
        """
        CREATE TABLE users (
            id TEXT PRIMARY KEY NOT NULL,
            external_id TEXT NOT NULL UNIQUE,
            name TEXT NOT NULL,
            email TEXT NOT NULL
        ) STRICT
        """,
        """
        CREATE TABLE listings (
            id TEXT PRIMARY KEY NOT NULL,
            owner_id TEXT NOT NULL REFERENCES users(id),
            name TEXT NOT NULL,
            address TEXT NOT NULL,
            city TEXT NOT NULL,
            country TEXT NOT NULL,
            capacity INTEGER NOT NULL CHECK (capacity >= 1),
            description TEXT NOT NULL,
            check_in_time_ms INTEGER NOT NULL CHECK (check_in_time_ms BETWEEN 0 AND 86399999),
            check_out_time_ms INTEGER NOT NULL CHECK (check_out_time_ms BETWEEN 0 AND 86399999),
            time_zone TEXT NOT NULL
        ) STRICT
        """,
        "CREATE INDEX listings_by_owner ON listings(owner_id, id)",
        "CREATE INDEX listings_by_city ON listings(city, id)",
        """
        CREATE TABLE reservations (
            id TEXT PRIMARY KEY NOT NULL,
            listing_id TEXT NOT NULL REFERENCES listings(id),
            guest_id TEXT NOT NULL REFERENCES users(id),
            check_in_day INTEGER NOT NULL,
            check_out_day INTEGER NOT NULL,
            guests INTEGER NOT NULL CHECK (guests >= 1),
            status TEXT NOT NULL CHECK (status IN ('confirmed', 'checkedIn', 'checkedOut', 'cancelled')),
            created_at_ms INTEGER NOT NULL,
            CHECK (check_out_day > check_in_day)
        ) STRICT
        """,
        "CREATE INDEX reservations_by_listing ON reservations(listing_id, check_in_day, id)",
        "CREATE INDEX reservations_by_guest ON reservations(guest_id, check_in_day, id)",
        """
        CREATE TABLE conversations (
            id TEXT PRIMARY KEY NOT NULL,
            reservation_id TEXT NOT NULL UNIQUE REFERENCES reservations(id),
            last_message_at_ms INTEGER NOT NULL
        ) STRICT
        """,
        """
        CREATE TABLE conversation_participants (
            conversation_id TEXT NOT NULL REFERENCES conversations(id),
            user_id TEXT NOT NULL REFERENCES users(id),
            PRIMARY KEY (conversation_id, user_id)
        ) STRICT, WITHOUT ROWID
        """,
        "CREATE INDEX conversation_participants_by_user ON conversation_participants(user_id, conversation_id)",
        """
        CREATE TABLE messages (
            sequence INTEGER PRIMARY KEY,
            id TEXT NOT NULL UNIQUE,
            conversation_id TEXT NOT NULL REFERENCES conversations(id),
            sender_id TEXT NOT NULL REFERENCES users(id),
            text TEXT NOT NULL,
            sent_at_ms INTEGER NOT NULL
        ) STRICT
        """,
        "CREATE INDEX messages_by_conversation ON messages(conversation_id, sequence)",
        """
        CREATE TABLE ratings (
            sequence INTEGER PRIMARY KEY,
            id TEXT NOT NULL UNIQUE,
            listing_id TEXT NOT NULL REFERENCES listings(id),
            author_id TEXT NOT NULL REFERENCES users(id),
            reservation_id TEXT NOT NULL UNIQUE REFERENCES reservations(id),
            stars INTEGER NOT NULL CHECK (stars BETWEEN 1 AND 5),
            comment TEXT,
            created_at_ms INTEGER NOT NULL
        ) STRICT
        """,
        "CREATE INDEX ratings_by_listing ON ratings(listing_id, sequence)",
        """
        CREATE TABLE sequences (
            name TEXT PRIMARY KEY NOT NULL,
            value INTEGER NOT NULL
        ) STRICT, WITHOUT ROWID
        """,
    ])

    /// Version 2: the smart-home side — home configurations with their Items, and the lock audit log.
    static let home = Migration(version: 2, name: "home configurations and lock audit", statements: [
        """
        CREATE TABLE home_configurations (
            id TEXT PRIMARY KEY NOT NULL,
            listing_id TEXT NOT NULL REFERENCES listings(id),
            type TEXT NOT NULL CHECK (type IN ('heating', 'cooling', 'smartPlug', 'lock', 'weatherWatcher')),
            name TEXT NOT NULL,
            thing_uid TEXT NOT NULL
        ) STRICT
        """,
        "CREATE INDEX home_configurations_by_listing ON home_configurations(listing_id, name, id)",
        """
        CREATE TABLE home_configuration_items (
            configuration_id TEXT NOT NULL REFERENCES home_configurations(id),
            property TEXT NOT NULL,
            item_name TEXT NOT NULL,
            PRIMARY KEY (configuration_id, property)
        ) STRICT, WITHOUT ROWID
        """,
        // Audit lines name the user as given: denied attempts by unknown users are recorded too,
        // so user_id has no foreign key.
        """
        CREATE TABLE lock_audit (
            sequence INTEGER PRIMARY KEY,
            at_ms INTEGER NOT NULL,
            listing_id TEXT NOT NULL REFERENCES listings(id),
            item TEXT NOT NULL,
            user_id TEXT NOT NULL,
            operation TEXT NOT NULL CHECK (operation IN ('lock', 'unlock')),
            outcome TEXT NOT NULL CHECK (outcome IN ('allowed', 'denied', 'failed')),
            reason TEXT NOT NULL
        ) STRICT
        """,
        "CREATE INDEX lock_audit_by_listing ON lock_audit(listing_id, sequence)",
    ])
}
