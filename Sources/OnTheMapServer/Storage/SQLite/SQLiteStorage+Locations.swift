import Foundation
import GRDB
import OnTheMapModels

extension SQLiteStorage {
    public func locations(_ query: LocationQuery) async throws -> [StudentLocation] {
        let (condition, values) = query.whereClause { _ in "?" }
        let sql = "SELECT * FROM studentLocation\(condition) ORDER BY \(query.orderByClause) LIMIT ? OFFSET ?"
        let arguments = Self.arguments(values) + [query.limit, query.skip]
        return try await read { db in
            try StudentLocationRecord.fetchAll(db, sql: sql, arguments: arguments).map(\.wire)
        }
    }

    public func countLocations(_ query: LocationQuery) async throws -> Int {
        let (condition, values) = query.whereClause { _ in "?" }
        let arguments = Self.arguments(values)
        return try await read { db in
            try Int.fetchOne(db, sql: "SELECT count(*) FROM studentLocation\(condition)", arguments: arguments) ?? 0
        }
    }

    private static func arguments(_ values: [LocationFilter.Value]) -> StatementArguments {
        StatementArguments(values.map { value -> (any DatabaseValueConvertible) in
            switch value {
            case .text(let text): text
            case .number(let number): number
            // Stored as GRDB writes dates, so the text compares in time order.
            case .date(let date): date
            }
        })
    }

    public func location(objectId: String) async throws -> StudentLocation? {
        try await read { db in try StudentLocationRecord.fetchOne(db, key: objectId)?.wire }
    }

    public func postLocation(_ draft: StudentLocationDraft, objectId: String, now: Date) async throws
        -> PostedLocation
    {
        let timestamp = WireTimestamp.roundedToMilliseconds(now)
        let sql = SharedSchema.postLocation(onePerAccount: pinsPerAccount == .one, next: PinVersion.sqliteNext) { _ in "?" }
        let arguments: StatementArguments = [
            objectId, draft.uniqueKey, draft.firstName, draft.lastName, draft.mapString, draft.mediaURL,
            draft.latitude, draft.longitude, timestamp, timestamp,
        ]
        return try await write { db in
            let row = try Row.fetchOne(db, sql: sql, arguments: arguments)!
            let storedID: String = row[0]
            return PostedLocation(objectId: storedID, createdAt: row[1], moved: storedID != objectId)
        }
    }

    public func updateLocation(
        objectId: String, with draft: StudentLocationDraft, ownedBy owner: String?, ifUpdatedAt readAt: Date?, now: Date
    ) async throws -> LocationUpdate {
        try await write { db in
            guard let existing = try StudentLocationRecord.fetchOne(db, key: objectId) else { return .notFound }
            if let owner, existing.uniqueKey != owner { return .ownedByAnother }
            if let readAt, !PinVersion.same(existing.updatedAt, readAt) { return .changedSinceRead }
            let record = StudentLocationRecord(
                objectId: objectId, draft: draft, createdAt: existing.createdAt,
                updatedAt: PinVersion.next(after: existing.updatedAt, now: now))
            do {
                try record.update(db)
            } catch let error as DatabaseError where error.extendedResultCode == .SQLITE_CONSTRAINT_UNIQUE {
                throw StorageError.accountHasPin(draft.uniqueKey)
            }
            return .updated(record.wire)
        }
    }

    public func insertLocations(_ locations: [StudentLocation]) async throws {
        let onePerAccount = pinsPerAccount == .one
        try await write { db in
            for location in locations {
                let created = WireTimestamp.roundedToMilliseconds(location.createdAt ?? Date())
                let record = StudentLocationRecord(
                    objectId: location.objectId, draft: location.draft, createdAt: created,
                    updatedAt: WireTimestamp.roundedToMilliseconds(location.updatedAt ?? created))
                if onePerAccount {
                    // The newer of two pins of one account wins, as the merge at start-up decides.
                    try db.execute(
                        sql: "DELETE FROM studentLocation WHERE uniqueKey = ? AND updatedAt <= ?",
                        arguments: [record.uniqueKey, record.updatedAt])
                    if try StudentLocationRecord.filter(Column("uniqueKey") == record.uniqueKey).fetchCount(db) > 0 {
                        continue
                    }
                }
                try record.insert(db)
            }
        }
    }

    public func locationCount() async throws -> Int {
        try await read { db in try StudentLocationRecord.fetchCount(db) }
    }

    public func locationsVersion() async throws -> Int64 {
        try await read { db in
            try Int64.fetchOne(db, sql: "SELECT version FROM changeCounter WHERE name = 'studentLocation'") ?? 0
        }
    }
}
