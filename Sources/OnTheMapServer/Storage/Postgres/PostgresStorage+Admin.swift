import Foundation
import PostgresNIO

extension PostgresStorage {
    public func allAccounts() async throws -> [AccountRecord] {
        try await database.rows(
            PostgresQuery(unsafeSQL: "SELECT \(Self.accountColumns) FROM account ORDER BY createdAt, key")
        ).map(Self.account)
    }

    public func removeAccount(key: String) async throws -> Bool {
        defer { changes.noteLocalChange() }
        return try await database.transaction { connection, logger in
            try await connection.query("DELETE FROM studentLocation WHERE uniqueKey = \(key)", logger: logger)
            // Sessions go with the account (ON DELETE CASCADE).
            let rows = try await connection.query("DELETE FROM account WHERE key = \(key) RETURNING key", logger: logger)
                .collect()
            return !rows.isEmpty
        }
    }

    public func setPasswordHash(_ hash: String, forKey key: String) async throws -> Bool {
        try await !database.rows("UPDATE account SET passwordHash = \(hash) WHERE key = \(key) RETURNING key").isEmpty
    }

    public func renameAccount(key: String, firstName: String, lastName: String) async throws -> Int {
        defer { changes.noteLocalChange() }
        return try await database.transaction { connection, logger in
            try await connection.query(
                "UPDATE account SET firstName = \(firstName), lastName = \(lastName), nickname = \(firstName) WHERE key = \(key)",
                logger: logger)
            return try await connection.query(
                "UPDATE studentLocation SET firstName = \(firstName), lastName = \(lastName) WHERE uniqueKey = \(key) RETURNING objectId",
                logger: logger
            ).collect().count
        }
    }

    public func setDisabled(_ disabled: Bool, forKey key: String) async throws -> Bool {
        try await database.transaction { connection, logger in
            let rows = try await connection.query(
                "UPDATE account SET disabled = \(disabled) WHERE key = \(key) RETURNING key", logger: logger
            ).collect()
            if disabled { try await connection.query("DELETE FROM session WHERE accountKey = \(key)", logger: logger) }
            return !rows.isEmpty
        }
    }

    public func removeLocation(objectId: String) async throws -> Bool {
        defer { changes.noteLocalChange() }
        return try await !database.rows("DELETE FROM studentLocation WHERE objectId = \(objectId) RETURNING objectId").isEmpty
    }

    public func allSessions(accountKey: String?) async throws -> [SessionRecord] {
        let columns = "SELECT \(Self.sessionColumns) FROM session"
        let rows: [PostgresRow]
        if let accountKey {
            rows = try await database.rows(
                PostgresQuery(unsafeSQL: columns + " WHERE accountKey = $1 ORDER BY createdAt DESC", binds: Self.binds(accountKey)))
        } else {
            rows = try await database.rows(PostgresQuery(unsafeSQL: columns + " ORDER BY createdAt DESC"))
        }
        return try rows.map(Self.session)
    }

    public func revokeSession(id: String) async throws -> Bool {
        try await !database.rows("DELETE FROM session WHERE id = \(id) RETURNING id").isEmpty
    }

    public func revokeSessions(accountKey: String) async throws -> Int {
        try await database.rows("DELETE FROM session WHERE accountKey = \(accountKey) RETURNING id").count
    }
}
