import Foundation
import OnTheMapModels
import PostgresNIO

extension PostgresStorage {
    /// The columns `session(_:)` decodes, in its order.
    static let sessionColumns = "id, xsrfToken, accountKey, createdAt, expiresAt, lastUsedAt, clientAddress, userAgent"

    static func session(_ row: PostgresRow) throws -> SessionRecord {
        let (id, token, key, created, expires, used, address, agent) = try row.decode(
            (String, String, String, Date, Date, Date?, String?, String?).self)
        return SessionRecord(
            id: id, xsrfToken: token, accountKey: key, createdAt: created, expiresAt: expires, lastUsedAt: used,
            clientAddress: address, userAgent: agent)
    }

    public func insertSession(_ session: SessionRecord, now: Date, forgettingAttemptsOf attemptsOf: [String]) async throws {
        // Stored to the millisecond, as SQLite stores it, so a copy between the two is exact.
        let created = WireTimestamp.roundedToMilliseconds(session.createdAt)
        let expires = WireTimestamp.roundedToMilliseconds(session.expiresAt)
        // One statement, so one round trip and one commit: the deletes in WITH run in its transaction.
        try await database.execute(
            """
            WITH expired AS (DELETE FROM session WHERE expiresAt <= \(now)),
                forgotten AS (DELETE FROM loginThrottle WHERE subject = ANY(\(attemptsOf)))
            INSERT INTO session (id, xsrfToken, accountKey, createdAt, expiresAt, clientAddress, userAgent)
            VALUES (\(session.id), \(session.xsrfToken), \(session.accountKey), \(created), \(expires),
                    \(session.clientAddress), \(session.userAgent))
            """)
    }

    public func session(id: String) async throws -> SessionRecord? {
        try await database.rows(
            PostgresQuery(unsafeSQL: "SELECT \(Self.sessionColumns) FROM session WHERE id = $1", binds: Self.binds(id))
        ).first.map(Self.session)
    }

    public func deleteSession(xsrfToken: String) async throws -> SessionRecord? {
        try await database.rows(
            PostgresQuery(
                unsafeSQL: "DELETE FROM session WHERE xsrfToken = $1 RETURNING \(Self.sessionColumns)",
                binds: Self.binds(xsrfToken))
        ).first.map(Self.session)
    }

    public func markSessionUsed(id: String, at now: Date) async throws {
        let used = WireTimestamp.roundedToMilliseconds(now)
        try await database.execute("UPDATE session SET lastUsedAt = \(used) WHERE id = \(id)")
    }

    public func countAttempts(_ counters: [AttemptCounter], now: Date) async throws -> [AttemptTally] {
        guard !counters.isEmpty else { return [] }
        let nowSeconds = now.timeIntervalSince1970
        if Int.random(in: 0..<SharedSchema.throttlePruneOneIn) == 0 {
            try await database.execute(
                PostgresQuery(
                    unsafeSQL: SharedSchema.pruneAttempts(before: "$1", skippingLocked: true),
                    binds: Self.binds(nowSeconds - SharedSchema.throttleRetention)))
        }
        // One statement: each upsert's row lock (ON CONFLICT) makes concurrent attempts, from any
        // replica, count one by one. Each upsert after the first selects from the one before, so it
        // counts only if that count was within its limit, and it runs after it: the rows are locked
        // in the counters' order (address, then account) by every login, never in a cycle.
        // Parameters: $1 now, then subject, cutoff and limit per counter.
        var binds = Self.binds(nowSeconds)
        var upserts: [String] = []
        var selects: [String] = []
        for (position, counter) in counters.enumerated() {
            let first = 2 + 3 * position
            binds.append(counter.subject)
            binds.append(nowSeconds - counter.window.seconds)
            binds.append(counter.limit)
            let previous = position == 0 ? nil : (from: "counted\(position - 1)", condition: "attempts <= $\(first - 1)")
            let upsert = SharedSchema.countAttempt(subject: "$\(first)", now: "$1", cutoff: "$\(first + 1)", onlyIf: previous)
            upserts.append("counted\(position) AS (\(upsert))")
            selects.append("SELECT \(position), attempts, windowStart FROM counted\(position)")
        }
        let sql = "WITH \(upserts.joined(separator: ", ")) \(selects.joined(separator: " UNION ALL ")) ORDER BY 1"
        var tallies: [AttemptTally] = []
        for row in try await database.rows(PostgresQuery(unsafeSQL: sql, binds: binds)) {
            let (position, attempts, start) = try row.decode((Int, Int, Double).self)
            guard position == tallies.count else { throw StorageError.unavailable("attempt counts out of order") }
            tallies.append(AttemptTally(attempts: attempts, windowStart: Date(timeIntervalSince1970: start)))
        }
        // Every counter answered, or the counting stopped at one over its limit: anything else would
        // admit an attempt nobody counted.
        guard let last = tallies.last, tallies.count == counters.count || last.attempts > counters[tallies.count - 1].limit
        else { throw StorageError.unavailable("an attempt count went unanswered") }
        return tallies
    }
}
