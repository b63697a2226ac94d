import Foundation
import OnTheMapModels
import PostgresNIO

extension PostgresStorage {
    static func session(_ row: PostgresRow) throws -> SessionRecord {
        let (id, token, key, created, expires) = try row.decode((String, String, String, Date, Date).self)
        return SessionRecord(id: id, xsrfToken: token, accountKey: key, createdAt: created, expiresAt: expires)
    }

    public func insertSession(_ session: SessionRecord, now: Date, forgettingAttemptsOf attemptsOf: String?) async throws {
        // Stored to the millisecond, as SQLite stores it, so a copy between the two is exact.
        let created = WireTimestamp.roundedToMilliseconds(session.createdAt)
        let expires = WireTimestamp.roundedToMilliseconds(session.expiresAt)
        // One statement, so one round trip and one commit: the deletes in WITH run in its transaction.
        try await database.execute(
            """
            WITH expired AS (DELETE FROM session WHERE expiresAt <= \(now)),
                forgotten AS (DELETE FROM loginThrottle WHERE subject = \(attemptsOf))
            INSERT INTO session (id, xsrfToken, accountKey, createdAt, expiresAt)
            VALUES (\(session.id), \(session.xsrfToken), \(session.accountKey), \(created), \(expires))
            """)
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

    public func countAttempts(_ counters: [AttemptCounter], now: Date) async throws -> [AttemptTally] {
        precondition(Set(counters.map(\.subject)).count == counters.count, "one count per subject")
        guard !counters.isEmpty else { return [] }
        let nowSeconds = now.timeIntervalSince1970
        if Int.random(in: 0..<SharedSchema.throttlePruneOneIn) == 0 {
            try await database.execute(
                "DELETE FROM loginThrottle WHERE windowStart < \(nowSeconds - SharedSchema.throttleRetention)")
        }
        // One statement: each upsert's row lock (ON CONFLICT) makes concurrent attempts, from any
        // replica, count one by one; the upserts are sub-statements so all the counts are one round trip.
        // Parameters: $1 now, then a subject and a cutoff per counter.
        var binds = Self.binds(nowSeconds)
        var upserts: [String] = []
        var selects: [String] = []
        for (position, counter) in counters.enumerated() {
            let subject = 2 + 2 * position
            binds.append(counter.subject)
            binds.append(nowSeconds - counter.window.seconds)
            let upsert = SharedSchema.countAttempt { ["$\(subject)", "$1", "$\(subject + 1)"][$0 - 1] }
            upserts.append("counted\(position) AS (\(upsert))")
            selects.append("SELECT \(position), attempts, windowStart FROM counted\(position)")
        }
        let sql = "WITH \(upserts.joined(separator: ", ")) \(selects.joined(separator: " UNION ALL "))"
        var tallies = [AttemptTally?](repeating: nil, count: counters.count)
        for row in try await database.rows(PostgresQuery(unsafeSQL: sql, binds: binds)) {
            let (position, attempts, start) = try row.decode((Int, Int, Double).self)
            tallies[position] = AttemptTally(attempts: attempts, windowStart: Date(timeIntervalSince1970: start))
        }
        return try tallies.map { tally in
            guard let tally else { throw StorageError.unavailable("no answer to an attempt count") }
            return tally
        }
    }
}
