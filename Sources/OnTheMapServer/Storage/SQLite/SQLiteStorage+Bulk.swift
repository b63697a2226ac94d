import Foundation
import GRDB
import OnTheMapModels

extension SQLiteStorage {
    public func snapshot() async throws -> StorageSnapshot {
        try await read { db in
            StorageSnapshot(
                accounts: try AccountRecord.fetchAll(db),
                sessions: try SessionRecord.fetchAll(db),
                locations: try StudentLocationRecord.fetchAll(db).map(\.wire))
        }
    }

    public func restore(_ snapshot: StorageSnapshot) async throws {
        try await write { db in
            let existing = try AccountRecord.fetchCount(db) + StudentLocationRecord.fetchCount(db)
            guard existing == 0 else {
                throw StorageError.notEmpty("the destination already holds accounts or pins")
            }
            for var account in snapshot.accounts {
                account.id = nil
                try account.insert(db)
            }
            for session in snapshot.sessions { try session.insert(db) }
            for location in snapshot.locations {
                try StudentLocationRecord(
                    objectId: location.objectId, draft: location.draft, createdAt: location.createdAt ?? Date(),
                    updatedAt: location.updatedAt ?? location.createdAt ?? Date()
                ).insert(db)
            }
        }
    }
}
