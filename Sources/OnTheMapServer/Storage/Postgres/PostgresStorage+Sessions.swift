import Foundation
import OnTheMapModels
import PostgresNIO

extension PostgresStorage {
    static func session(_ row: PostgresRow) throws -> SessionRecord {
        let (id, token, key, created, expires) = try row.decode((String, String, String, Date, Date).self)
        return SessionRecord(id: id, xsrfToken: token, accountKey: key, createdAt: created, expiresAt: expires)
    }

    public func insertSession(_ session: SessionRecord, now: Date) async throws {
        // Stored to the millisecond, as SQLite stores it, so a copy between the two is exact.
        let created = WireTimestamp.roundedToMilliseconds(session.createdAt)
        let expires = WireTimestamp.roundedToMilliseconds(session.expiresAt)
        try await database.transaction { connection, logger in
            try await connection.query("DELETE FROM session WHERE expiresAt <= \(now)", logger: logger)
            try await connection.query(
                """
                INSERT INTO session (id, xsrfToken, accountKey, createdAt, expiresAt)
                VALUES (\(session.id), \(session.xsrfToken), \(session.accountKey), \(created), \(expires))
                """, logger: logger)
        }
    }

    public func session(id: String) async throws -> SessionRecord? {
        try await database.rows(
            "SELECT id, xsrfToken, accountKey, createdAt, expiresAt FROM session WHERE id = \(id)"
        ).first.map(Self.session)
    }

    public func deleteSession(xsrfToken: String) async throws -> SessionRecord? {
        try await database.rows(
            "DELETE FROM session WHERE xsrfToken = \(xsrfToken) RETURNING id, xsrfToken, accountKey, createdAt, expiresAt"
        ).first.map(Self.session)
    }

    public func countAttempt(subject: String, window: Duration, now: Date) async throws -> AttemptTally {
        let nowSeconds = now.timeIntervalSince1970
        if Int.random(in: 0..<SharedSchema.throttlePruneOneIn) == 0 {
            try await database.execute(
                "DELETE FROM loginThrottle WHERE windowStart < \(nowSeconds - SharedSchema.throttleRetention)")
        }
        // One statement: the row lock of ON CONFLICT makes concurrent attempts (from any replica) count one by one.
        let rows = try await database.rows(
            PostgresQuery(
                unsafeSQL: SharedSchema.countAttempt { "$\($0)" },
                binds: Self.binds(subject, nowSeconds, nowSeconds - window.seconds)))
        guard let row = rows.first else { throw StorageError.unavailable("no answer to an attempt count") }
        let (attempts, start) = try row.decode((Int, Double).self)
        return AttemptTally(attempts: attempts, windowStart: Date(timeIntervalSince1970: start))
    }

    public func clearAttempts(subject: String) async throws {
        try await database.execute("DELETE FROM loginThrottle WHERE subject = \(subject)")
    }
}
