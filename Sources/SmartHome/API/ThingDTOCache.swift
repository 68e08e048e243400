import Synchronization

/// The `GET /rest/things` body of each Thing, kept until the Thing, its status or a link to one
/// of its channels changes.
///
/// A client that lists every Thing before it wires each one (the home service does, as the
/// original did) would otherwise rebuild every Thing's DTO per call — quadratic in the number of
/// Things. ``OpenHABRuntime`` calls ``invalidate(_:)`` after each change it makes to a Thing or
/// its links; a DTO built while such a change happened is not kept (see ``store(_:for:ifRevision:)``).
final class ThingDTOCache: Sendable {
    private struct Entry {
        /// Changes with every invalidation; 0 for a Thing never invalidated.
        var revision: UInt64
        var dto: EnrichedThingDTO?
    }

    private struct Storage {
        var entries: [ThingUID: Entry] = [:]
        var nextRevision: UInt64 = 1
    }

    private let storage = Mutex(Storage())

    /// The kept DTO of `uid`, if any, and the revision to pass to ``store(_:for:ifRevision:)``
    /// after building one.
    func lookup(_ uid: ThingUID) -> (dto: EnrichedThingDTO?, revision: UInt64) {
        storage.withLock { storage in
            let entry = storage.entries[uid]
            return (entry?.dto, entry?.revision ?? 0)
        }
    }

    /// Keeps `dto` for `uid` unless `uid` was invalidated since ``lookup(_:)`` returned `revision`.
    func store(_ dto: EnrichedThingDTO, for uid: ThingUID, ifRevision revision: UInt64) {
        storage.withLock { storage in
            guard (storage.entries[uid]?.revision ?? 0) == revision else { return }
            storage.entries[uid] = Entry(revision: revision, dto: dto)
        }
    }

    /// Forgets the DTO of `uid`: the Thing, its status or its links changed.
    func invalidate(_ uid: ThingUID) {
        storage.withLock { storage in
            storage.entries[uid] = Entry(revision: storage.nextRevision, dto: nil)
            storage.nextRevision += 1
        }
    }
}
