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
        let rows = try await database.rows(
            """
            INSERT INTO account (key, email, passwordHash, facebookID, firstName, lastName, nickname, createdAt, disabled)
            VALUES (\(record.key), \(record.email), \(record.passwordHash), \(record.facebookID), \(record.firstName),
                    \(record.lastName), \(record.nickname), \(record.createdAt), \(record.disabled))
            RETURNING id
            """)
        var stored = record
        stored.id = try rows.first?.decode(Int64.self)
        return stored
    }

    public func account(email: String) async throws -> AccountRecord? {
        try await database.rows(
            PostgresQuery(
                unsafeSQL: "SELECT \(Self.accountColumns) FROM account WHERE lower(email) = lower($1)",
                binds: Self.binds(email))
        ).first.map(Self.account)
    }

    public func account(key: String) async throws -> AccountRecord? {
        try await database.rows(
            PostgresQuery(unsafeSQL: "SELECT \(Self.accountColumns) FROM account WHERE key = $1", binds: Self.binds(key))
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
                _ = try await database.rows(
                    """
                    INSERT INTO account (key, email, passwordHash, facebookID, firstName, lastName, nickname, createdAt, disabled)
                    VALUES (\(record.key), NULL, NULL, \(facebookID), \(record.firstName), \(record.lastName),
                            \(record.nickname), \(record.createdAt), FALSE)
                    ON CONFLICT (facebookID) DO NOTHING
                    """)
            } catch let error where PostgresErrors.isUniqueViolation(error) {
                continue  // the random key clashed
            }
            if let existing = try await database.rows(
                PostgresQuery(
                    unsafeSQL: "SELECT \(Self.accountColumns) FROM account WHERE facebookID = $1",
                    binds: Self.binds(facebookID))
            ).first.map(Self.account) {
                return existing
            }
        }
        throw StorageError.unavailable("no free account key after 8 tries")
    }

    /// Bindings for a query built from text.
    static func binds(_ values: any PostgresThrowingDynamicTypeEncodable...) -> PostgresBindings {
        var bindings = PostgresBindings(capacity: values.count)
        for value in values { try! bindings.append(value) }
        return bindings
    }
}
