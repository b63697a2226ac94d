import Foundation
import OnTheMapModels
import PostgresNIO

extension PostgresStorage {
    public func snapshot() async throws -> StorageSnapshot {
        try await database.transaction { connection, logger in
            // One snapshot for the three reads: a consistent copy while replicas keep writing.
            try await connection.query("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ READ ONLY", logger: logger)
            let accounts = try await connection.query(
                PostgresQuery(unsafeSQL: "SELECT \(Self.accountColumns) FROM account"), logger: logger
            ).collect().map(Self.account)
            let sessions = try await connection.query(
                PostgresQuery(unsafeSQL: "SELECT \(Self.sessionColumns) FROM session"), logger: logger
            ).collect().map(Self.session)
            let locations = try await connection.query(
                PostgresQuery(unsafeSQL: "SELECT \(SharedSchema.locationColumns) FROM studentLocation"), logger: logger
            ).collect().map(Self.location)
            return StorageSnapshot(accounts: accounts, sessions: sessions, locations: locations)
        }
    }

    public func restore(_ snapshot: StorageSnapshot) async throws {
        defer { changes.noteLocalChange() }
        try await database.transaction { connection, logger in
            let existing = try await connection.query(
                "SELECT (SELECT count(*) FROM account) + (SELECT count(*) FROM studentLocation)", logger: logger
            ).collect().first?.decode(Int.self) ?? 0
            guard existing == 0 else {
                throw StorageError.notEmpty("the destination already holds accounts or pins")
            }
            for account in snapshot.accounts {
                try await connection.query(Self.insert(account), logger: logger)
            }
            for s in snapshot.sessions {
                try await connection.query(
                    """
                    INSERT INTO session (id, xsrfToken, accountKey, createdAt, expiresAt, lastUsedAt, clientAddress, userAgent)
                    VALUES (\(s.id), \(s.xsrfToken), \(s.accountKey), \(s.createdAt), \(s.expiresAt), \(s.lastUsedAt),
                            \(s.clientAddress), \(s.userAgent))
                    """, logger: logger)
            }
            for l in snapshot.locations {
                let created = l.createdAt ?? Date()
                let updated = l.updatedAt ?? created
                try await connection.query(
                    """
                    INSERT INTO studentLocation (objectId, uniqueKey, firstName, lastName, mapString, mediaURL, latitude, longitude, createdAt, updatedAt)
                    VALUES (\(l.objectId), \(l.uniqueKey), \(l.firstName), \(l.lastName), \(l.mapString), \(l.mediaURL),
                            \(l.latitude), \(l.longitude), \(created), \(updated))
                    """, logger: logger)
            }
        }
    }
}
