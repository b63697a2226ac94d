import Foundation
import GRDB
import OnTheMapModels

/// One term of an `order` parameter: a column, ascending or descending.
struct SortTerm: Hashable, Sendable {
    var column: String
    var descending: Bool
}

/// Reads and writes pins.
struct StudentLocationRepository: Sendable {
    let database: AppDatabase

    /// Locations matching the query, in the given order (ties broken by `objectId` so pages are stable).
    func list(limit: Int, skip: Int, order: [SortTerm], uniqueKey: String?) async throws -> [StudentLocation] {
        try await database.writer.read { db in
            var request = StudentLocationRecord.all()
            if let uniqueKey { request = request.filter(Column("uniqueKey") == uniqueKey) }
            var orderings: [any SQLOrderingTerm] = order.map { term in
                term.descending ? Column(term.column).desc : Column(term.column).asc
            }
            orderings.append(Column("objectId").asc)
            return try request.order(orderings).limit(limit, offset: skip).fetchAll(db).map(\.wire)
        }
    }

    /// The location with this id, if any.
    func find(objectId: String) async throws -> StudentLocation? {
        try await database.writer.read { db in try StudentLocationRecord.fetchOne(db, key: objectId)?.wire }
    }

    /// Stores a new location under a fresh `objectId`.
    func create(_ draft: StudentLocationDraft, now: Date = Date()) async throws -> StudentLocation {
        let timestamp = WireTimestamp.roundedToMilliseconds(now)
        return try await database.writer.write { db in
            var objectId = SecretGenerator.objectID()
            while try StudentLocationRecord.exists(db, key: objectId) { objectId = SecretGenerator.objectID() }
            let record = StudentLocationRecord(objectId: objectId, draft: draft, createdAt: timestamp, updatedAt: timestamp)
            try record.insert(db)
            return record.wire
        }
    }

    /// Replaces a location's fields, keeping `objectId` and `createdAt`; nil if there is no such location.
    func update(objectId: String, with draft: StudentLocationDraft, now: Date = Date()) async throws
        -> StudentLocation?
    {
        let timestamp = WireTimestamp.roundedToMilliseconds(now)
        return try await database.writer.write { db in
            guard let existing = try StudentLocationRecord.fetchOne(db, key: objectId) else { return nil }
            let record = StudentLocationRecord(
                objectId: objectId, draft: draft, createdAt: existing.createdAt, updatedAt: timestamp)
            try record.update(db)
            return record.wire
        }
    }

    /// Inserts many locations in one transaction (seeding).
    func insert(_ locations: [StudentLocation]) async throws {
        try await database.writer.write { db in
            for location in locations {
                let created = location.createdAt ?? Date()
                try StudentLocationRecord(
                    objectId: location.objectId, draft: location.draft,
                    createdAt: WireTimestamp.roundedToMilliseconds(created),
                    updatedAt: WireTimestamp.roundedToMilliseconds(location.updatedAt ?? created)
                ).insert(db)
            }
        }
    }

    /// How many locations are stored.
    func count() async throws -> Int {
        try await database.writer.read { db in try StudentLocationRecord.fetchCount(db) }
    }
}
