import Foundation
import PostgresNIO

extension PostgresStorage {
    static let accountColumns =
        "id, key, email, passwordHash, facebookID, firstName, lastName, nickname, createdAt, disabled"

    static func account(_ row: PostgresRow) throws -> AccountRecord {
        let (id, key, email, hash, facebookID, first, last, nickname, created, disabled) = try row.decode(
            (Int64, String, String?, String?, String?, String, String, String, Date, Bool).self)
        return AccountRecord(
            id: id, key: key, email: email, passwordHash: hash, facebookID: facebookID, firstName: first,
            lastName: last, nickname: nickname, createdAt: created, disabled: disabled)
    }

    public func createAccount(_ new: NewAccount) async throws -> AccountRecord {
        // A fresh key is tried again on the (rare) clash; a taken email is final.
        for _ in 0..<8 {
            let record = AccountRecord(new: new, key: SecretGenerator.accountKey())
            do {
                return try await insert(record)
            } catch let error where PostgresErrors.isUniqueViolation(error) {
                let constraint = (error as? PSQLError)?.serverInfo?[.constraintName] ?? ""
                if constraint == "account_email", let email = new.email { throw StorageError.emailTaken(email) }
                if constraint == "account_facebookid_key" { throw error }
            }
        }
        throw StorageError.unavailable("no free account key after 8 tries")
    }

    private func insert(_ record: AccountRecord) async throws -> AccountRecord {
        let rows = try await database.rows(Self.insert(record, then: " RETURNING id"))
        var stored = record
        stored.id = try rows.first?.decode(Int64.self)
        return stored
    }

    public func account(email: String) async throws -> AccountRecord? {
        try await account(where: "lower(email) = lower($1)", email)
    }

    public func account(key: String) async throws -> AccountRecord? {
        try await account(where: "key = $1", key)
    }

    /// The account for which `condition` holds with `value` as `$1`, if any.
    private func account(where condition: String, _ value: String) async throws -> AccountRecord? {
        try await database.rows(
            PostgresQuery(unsafeSQL: "SELECT \(Self.accountColumns) FROM account WHERE \(condition)", binds: Self.binds(value))
        ).first.map(Self.account)
    }

    public func facebookAccount(facebookID: String, firstName: String, lastName: String, now: Date) async throws
        -> AccountRecord
    {
        let new = NewAccount(
            email: nil, passwordHash: nil, facebookID: facebookID, firstName: firstName, lastName: lastName,
            createdAt: now)
        for _ in 0..<8 {
            // Two first logins at once: one inserts, the other's conflict falls through to the select.
            let record = AccountRecord(new: new, key: SecretGenerator.accountKey())
            do {
                _ = try await database.rows(Self.insert(record, then: " ON CONFLICT (facebookID) DO NOTHING"))
            } catch let error where PostgresErrors.isUniqueViolation(error) {
                continue  // the random key clashed
            }
            if let existing = try await account(where: "facebookID = $1", facebookID) {
                return existing
            }
        }
        throw StorageError.unavailable("no free account key after 8 tries")
    }

    /// The statement that stores an account as it is, but for its `id`, followed by `suffix`.
    static func insert(_ a: AccountRecord, then suffix: String = "") -> PostgresQuery {
        var query: PostgresQuery = """
            INSERT INTO account (key, email, passwordHash, facebookID, firstName, lastName, nickname, createdAt, disabled)
            VALUES (\(a.key), \(a.email), \(a.passwordHash), \(a.facebookID), \(a.firstName), \(a.lastName),
                    \(a.nickname), \(a.createdAt), \(a.disabled))
            """
        query.sql += suffix
        return query
    }

    /// Bindings for a query built from text.
    static func binds(_ values: any PostgresThrowingDynamicTypeEncodable...) -> PostgresBindings {
        var bindings = PostgresBindings(capacity: values.count)
        for value in values { try! bindings.append(value) }
        return bindings
    }
}
