import Foundation
import GRDB
import OnTheMapModels

extension SQLiteStorage {
    public func insertSession(_ session: SessionRecord, now: Date) async throws {
        try await write { db in
            try SessionRecord.filter(Column("expiresAt") <= now).deleteAll(db)
            try session.insert(db)
        }
    }

    public func session(id: String) async throws -> SessionRecord? {
        try await read { db in try SessionRecord.fetchOne(db, key: id) }
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
    public func countAttempt(subject: String, window: Duration, now: Date) async throws -> AttemptTally {
        let nowSeconds = now.timeIntervalSince1970
        let cutoff = nowSeconds - window.seconds
        return try await write { db in
            if Int.random(in: 0..<SharedSchema.throttlePruneOneIn) == 0 {
                try db.execute(
                    sql: "DELETE FROM loginThrottle WHERE windowStart < ?",
                    arguments: [nowSeconds - SharedSchema.throttleRetention])
            }
            let row = try Row.fetchOne(
                db, sql: SharedSchema.countAttempt { ":p\($0)" },
                arguments: ["p1": subject, "p2": nowSeconds, "p3": cutoff])!
            return AttemptTally(
                attempts: row[0], windowStart: Date(timeIntervalSince1970: row[1]))
        }
    }

    public func clearAttempts(subject: String) async throws {
        try await write { db in
            try db.execute(sql: "DELETE FROM loginThrottle WHERE subject = ?", arguments: [subject])
        }
    }
}
