import Hummingbird
import NIOConcurrencyHelpers
import NIOCore

/// Encoded answers of `GET /StudentLocation`, kept until a pin changes anywhere.
///
/// Each answer is stored with the pins' version (a counter the database's triggers bump on every pin
/// write, whichever replica or command makes it) and the change watch's mark it was last checked at.
/// While the watch's mark is unchanged (PostgreSQL's, told by NOTIFY) the answer is sent from memory
/// with no query at all; once it moves, or when the watch cannot tell (SQLite's, which always asks:
/// about 120 µs of CPU a request, the hand-off to GRDB's reader, docs/benchmarks.md), the version is
/// read — one tiny query — and the answer is kept if the version still matches. The mark is taken
/// before the version and the version before the list, so an answer is never older than the mark or
/// version it is stored under.
final class LocationListCache: Sendable {
    private struct Entry {
        var version: Int64
        /// The watch's mark when `version` was last read and found current; nil: check again.
        var checkedAt: UInt64?
        var list: CachedList
    }

    /// Distinct queries kept at once; beyond it the cache starts over (clients ask for few shapes).
    private let capacity: Int
    /// Tells, without a query, whether pins may have changed.
    private let changes: any LocationChangeWatch
    /// Guards the entries, by the request's query string as sent (only a valid one is ever stored,
    /// and one string always means one query, so a hit needs no parsing); held only to look up or
    /// store one.
    private let entries = NIOLockedValueBox<[String: Entry]>([:])

    init(changes: any LocationChangeWatch, capacity: Int = 64) {
        self.changes = changes
        self.capacity = capacity
    }

    /// The answer to the request with the query string `query` (`If-None-Match`: `ifNoneMatch`): the
    /// watch's mark, then the stored answer checked at it; else `parse` (a bad query throws before
    /// the database is asked), the pins' `version` and the answer stored at it; else `build`'s bytes,
    /// stored. The mark, then the version, then the list: an answer is never older than its key.
    func answer<Query>(
        _ query: String, ifNoneMatch: String?, parse: () throws -> Query, version: () async throws -> Int64,
        build: (Query) async throws -> ByteBuffer
    ) async throws -> Response {
        let mark = changes.mark()
        if let mark, let list = list(for: query, mark: mark) { return list.response(ifNoneMatch: ifNoneMatch) }
        let parsed = try parse()
        let version = try await version()
        if let list = list(for: query, version: version, mark: mark) { return list.response(ifNoneMatch: ifNoneMatch) }
        return store(try await build(parsed), for: query, version: version, mark: mark).response(ifNoneMatch: ifNoneMatch)
    }

    /// The stored answer for the query, if it was checked at `mark` (no query needed).
    private func list(for query: String, mark: UInt64) -> CachedList? {
        entries.withLockedValue { entries in
            guard let entry = entries[query], entry.checkedAt == mark else { return nil }
            return entry.list
        }
    }

    /// The stored answer for the query, if it was made at `version`; it is then known current as of
    /// `mark` (taken before the version was read).
    private func list(for query: String, version: Int64, mark: UInt64?) -> CachedList? {
        entries.withLockedValue { entries in
            guard var entry = entries[query], entry.version == version else { return nil }
            if let mark, mark > (entry.checkedAt ?? 0) || entry.checkedAt == nil {
                entry.checkedAt = mark
                entries[query] = entry
            }
            return entry.list
        }
    }

    /// Stores an answer made at `version` (or later), read after the watch showed `mark`, and returns
    /// it with its entity tag (computed here, once, outside the lock).
    private func store(_ body: ByteBuffer, for query: String, version: Int64, mark: UInt64?) -> CachedList {
        let list = CachedList(body: body)
        entries.withLockedValue { entries in
            if entries.count >= capacity, entries[query] == nil { entries.removeAll(keepingCapacity: true) }
            if let existing = entries[query], existing.version > version { return }
            entries[query] = Entry(version: version, checkedAt: mark, list: list)
        }
        return list
    }
}

/// An encoded list as the cache keeps it: the body, and the strong entity tag of those bytes.
struct CachedList: Sendable {
    let body: ByteBuffer
    let etag: String

    init(body: ByteBuffer) {
        self.body = body
        etag = EntityTag.of(body)
    }
}
