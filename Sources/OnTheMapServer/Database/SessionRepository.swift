import Foundation
import GRDB

/// Creates, finds and ends sessions.
public struct SessionRepository: Sendable {
    let database: AppDatabase

    /// Creates a repository over a database.
    public init(database: AppDatabase) {
        self.database = database
    }

    /// Starts a session for an account; also forgets sessions that have expired.
    public func create(accountKey: String, lifetime: Duration, now: Date = Date()) async throws -> SessionRecord {
        let session = SessionRecord(
            id: SecretGenerator.sessionID(now: now),
            xsrfToken: SecretGenerator.token(),
            accountKey: accountKey,
            createdAt: now,
            expiresAt: now.addingTimeInterval(TimeInterval(lifetime.components.seconds))
        )
        try await database.writer.write { db in
            try SessionRecord.filter(Column("expiresAt") <= now).deleteAll(db)
            try session.insert(db)
        }
        return session
    }

    /// The session with this id, whether or not it has expired.
    public func find(id: String) async throws -> SessionRecord? {
        try await database.writer.read { db in try SessionRecord.fetchOne(db, key: id) }
    }

    /// Ends the session whose XSRF token this is, and returns it.
    public func delete(xsrfToken: String) async throws -> SessionRecord? {
        try await database.writer.write { db in
            guard let session = try SessionRecord.filter(Column("xsrfToken") == xsrfToken).fetchOne(db) else {
                return nil
            }
            try session.delete(db)
            return session
        }
    }
}
