import Foundation
import GRDB

extension SQLiteStorage {
    public func allAccounts() async throws -> [AccountRecord] {
        try await read { db in try AccountRecord.order(Column("createdAt"), Column("key")).fetchAll(db) }
    }

    public func removeAccount(key: String) async throws -> Bool {
        try await write { db in
            try db.execute(sql: "DELETE FROM studentLocation WHERE uniqueKey = ?", arguments: [key])
            try db.execute(sql: "DELETE FROM session WHERE accountKey = ?", arguments: [key])
            try db.execute(sql: "DELETE FROM account WHERE key = ?", arguments: [key])
            return db.changesCount > 0
        }
    }

    public func setPasswordHash(_ hash: String, forKey key: String) async throws -> Bool {
        try await changedRows("UPDATE account SET passwordHash = ? WHERE key = ?", [hash, key]) > 0
    }

    public func renameAccount(key: String, firstName: String, lastName: String) async throws -> Int {
        try await write { db in
            try db.execute(
                sql: "UPDATE account SET firstName = ?, lastName = ?, nickname = ? WHERE key = ?",
                arguments: [firstName, lastName, firstName, key])
            try db.execute(
                sql: "UPDATE studentLocation SET firstName = ?, lastName = ? WHERE uniqueKey = ?",
                arguments: [firstName, lastName, key])
            return db.changesCount
        }
    }

    public func setDisabled(_ disabled: Bool, forKey key: String) async throws -> Bool {
        try await write { db in
            try db.execute(sql: "UPDATE account SET disabled = ? WHERE key = ?", arguments: [disabled, key])
            let changed = db.changesCount > 0
            if disabled { try db.execute(sql: "DELETE FROM session WHERE accountKey = ?", arguments: [key]) }
            return changed
        }
    }

    public func removeLocation(objectId: String) async throws -> Bool {
        try await changedRows("DELETE FROM studentLocation WHERE objectId = ?", [objectId]) > 0
    }

    public func allSessions(accountKey: String?) async throws -> [SessionRecord] {
        try await read { db in
            var request = SessionRecord.order(Column("createdAt").desc)
            if let accountKey { request = request.filter(Column("accountKey") == accountKey) }
            return try request.fetchAll(db)
        }
    }

    public func revokeSession(id: String) async throws -> Bool {
        try await changedRows("DELETE FROM session WHERE id = ?", [id]) > 0
    }

    public func revokeSessions(accountKey: String) async throws -> Int {
        try await changedRows("DELETE FROM session WHERE accountKey = ?", [accountKey])
    }
}
