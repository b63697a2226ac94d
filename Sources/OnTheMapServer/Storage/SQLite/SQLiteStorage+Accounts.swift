import Foundation
import GRDB

extension SQLiteStorage {
    public func createAccount(_ new: NewAccount) async throws -> AccountRecord {
        try await write { db in
            if let email = new.email, try AccountRecord.filter(Column("email") == email).fetchOne(db) != nil {
                throw StorageError.emailTaken(email)
            }
            var account = AccountRecord(new: new, key: try Self.unusedKey(db))
            try account.insert(db)
            return account
        }
    }

    public func account(email: String) async throws -> AccountRecord? {
        try await read { db in try AccountRecord.filter(Column("email") == email).fetchOne(db) }
    }

    public func account(key: String) async throws -> AccountRecord? {
        try await read { db in try AccountRecord.filter(Column("key") == key).fetchOne(db) }
    }

    public func facebookAccount(facebookID: String, firstName: String, lastName: String, now: Date) async throws
        -> AccountRecord
    {
        try await write { db in
            if let existing = try AccountRecord.filter(Column("facebookID") == facebookID).fetchOne(db) {
                return existing
            }
            let new = NewAccount(
                email: nil, passwordHash: nil, facebookID: facebookID, firstName: firstName, lastName: lastName,
                createdAt: now)
            var account = AccountRecord(new: new, key: try Self.unusedKey(db))
            try account.insert(db)
            return account
        }
    }

    /// A fresh key; GRDB's writer runs one write at a time, so checking then inserting is safe here.
    private static func unusedKey(_ db: Database) throws -> String {
        while true {
            let key = SecretGenerator.accountKey()
            if try AccountRecord.filter(Column("key") == key).fetchCount(db) == 0 { return key }
        }
    }
}
