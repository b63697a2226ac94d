import Foundation
import GRDB
import OnTheMapModels

extension SQLiteStorage {
    public func insertSession(_ session: SessionRecord, now: Date, forgettingAttemptsOf attemptsOf: [String]) async throws {
        try await write { db in
            try SessionRecord.filter(Column("expiresAt") <= now).deleteAll(db)
            try session.insert(db)
            for subject in attemptsOf {
                try db.cachedStatement(sql: "DELETE FROM loginThrottle WHERE subject = ?").execute(arguments: [subject])
            }
        }
    }

    public func session(id: String) async throws -> SessionRecord? {
        try await read { db in try SessionRecord.fetchOne(db, key: id) }
    }

    public func markSessionUsed(id: String, at now: Date) async throws {
        let used = WireTimestamp.roundedToMilliseconds(now)
        _ = try await changedRows("UPDATE session SET lastUsedAt = ? WHERE id = ?", [used, id])
    }

    public func deleteSession(xsrfToken: String) async throws -> SessionRecord? {
        try await write { db in
            guard let session = try SessionRecord.filter(Column("xsrfToken") == xsrfToken).fetchOne(db) else {
                return nil
            }
            try session.delete(db)
            return session
        }
    }
}

extension SQLiteStorage {
    public func countAttempts(_ counters: [AttemptCounter], now: Date) async throws -> [AttemptTally] {
        let nowSeconds = now.timeIntervalSince1970
        return try await write { db in
            if Int.random(in: 0..<SharedSchema.throttlePruneOneIn) == 0 {
                try db.execute(sql: SharedSchema.pruneAttempts(before: "?"), arguments: [nowSeconds - SharedSchema.throttleRetention])
            }
            let count = try db.cachedStatement(sql: SharedSchema.countAttempt(subject: ":subject", now: ":now", cutoff: ":cutoff"))
            var tallies: [AttemptTally] = []
            for counter in counters {
                let row = try Row.fetchOne(
                    count,
                    arguments: ["subject": counter.subject, "now": nowSeconds, "cutoff": nowSeconds - counter.window.seconds])!
                let tally = AttemptTally(attempts: row[0], windowStart: Date(timeIntervalSince1970: row[1]))
                tallies.append(tally)
                if tally.attempts > counter.limit { break }
            }
            return tallies
        }
    }
}
