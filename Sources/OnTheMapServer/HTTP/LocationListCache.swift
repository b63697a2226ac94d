import NIOConcurrencyHelpers
import NIOCore

/// Encoded answers of `GET /StudentLocation`, kept until a pin changes anywhere.
///
/// Each answer is stored with the pins' version (a counter the database's triggers bump on every pin
/// write, whichever replica or command makes it). A request reads the version first — one tiny query —
/// and is answered from memory when it matches; a replica therefore sees another replica's write on
/// its very next request, with no message between replicas to lose. The version is read before the
/// list, so an answer is never older than the version it is stored under.
final class LocationListCache: Sendable {
    private struct Entry {
        var version: Int64
        var body: ByteBuffer
    }

    /// Distinct queries kept at once; beyond it the cache starts over (clients ask for few shapes).
    private let capacity: Int
    /// Guards the entries; held only to look up or store one.
    private let entries = NIOLockedValueBox<[LocationQuery: Entry]>([:])

    init(capacity: Int = 64) {
        self.capacity = capacity
    }

    /// The stored answer for the query, if it was made at `version`.
    func body(for query: LocationQuery, version: Int64) -> ByteBuffer? {
        entries.withLockedValue { entries in
            guard let entry = entries[query], entry.version == version else { return nil }
            return entry.body
        }
    }

    /// Stores an answer made at `version` (or later).
    func store(_ body: ByteBuffer, for query: LocationQuery, version: Int64) {
        entries.withLockedValue { entries in
            if entries.count >= capacity, entries[query] == nil { entries.removeAll(keepingCapacity: true) }
            entries[query] = Entry(version: version, body: body)
        }
    }
}
