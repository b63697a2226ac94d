import Foundation
import GRDB

/// Reads and writes accounts.
public struct AccountRepository: Sendable {
    let database: AppDatabase

    /// Creates a repository over a database.
    public init(database: AppDatabase) {
        self.database = database
    }

    /// Adds a password account; fails with `AccountError.emailTaken` if the email is in use.
    public func create(
        email: String, firstName: String, lastName: String, nickname: String? = nil, passwordHash: String,
        now: Date = Date()
    ) async throws -> AccountRecord {
        try await database.writer.write { db in
            if try AccountRecord.filter(Column("email") == email).fetchOne(db) != nil {
                throw AccountError.emailTaken(email)
            }
            var account = AccountRecord(
                id: nil, key: try Self.unusedKey(db), email: email, passwordHash: passwordHash, facebookID: nil,
                firstName: firstName, lastName: lastName, nickname: nickname ?? firstName, createdAt: now)
            try account.insert(db)
            return account
        }
    }

    /// The account with this email (case-insensitive), if any.
    public func find(email: String) async throws -> AccountRecord? {
        try await database.writer.read { db in
            try AccountRecord.filter(Column("email") == email).fetchOne(db)
        }
    }

    /// The account with this key, if any.
    public func find(key: String) async throws -> AccountRecord? {
        try await database.writer.read { db in
            try AccountRecord.filter(Column("key") == key).fetchOne(db)
        }
    }

    /// The account linked to a Facebook user, created on first login.
    public func findOrCreate(facebookID: String, firstName: String, lastName: String, now: Date = Date())
        async throws -> AccountRecord
    {
        try await database.writer.write { db in
            if let existing = try AccountRecord.filter(Column("facebookID") == facebookID).fetchOne(db) {
                return existing
            }
            var account = AccountRecord(
                id: nil, key: try Self.unusedKey(db), email: nil, passwordHash: nil, facebookID: facebookID,
                firstName: firstName, lastName: lastName, nickname: firstName, createdAt: now)
            try account.insert(db)
            return account
        }
    }

    /// A fresh 10-digit key, like Udacity's account keys.
    private static func unusedKey(_ db: Database) throws -> String {
        while true {
            let key = String(UInt64.random(in: 1_000_000_000...9_999_999_999))
            if try AccountRecord.filter(Column("key") == key).fetchCount(db) == 0 { return key }
        }
    }
}

/// Why an account could not be created.
public enum AccountError: Error, CustomStringConvertible {
    case emailTaken(String)

    public var description: String {
        switch self {
        case .emailTaken(let email): "An account with the email \(email) already exists."
        }
    }
}
