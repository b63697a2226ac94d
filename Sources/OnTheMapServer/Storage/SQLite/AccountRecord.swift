import Foundation
import GRDB
import OnTheMapModels

/// A row of `account`: someone who can log in, by password or Facebook.
public struct AccountRecord: Codable, Sendable, Hashable, FetchableRecord, MutablePersistableRecord {
    public static let databaseTableName = "account"

    public var id: Int64?
    /// Public identifier: the `uniqueKey` of this account's pin.
    public var key: String
    public var email: String?
    /// bcrypt hash; nil for Facebook-only accounts.
    public var passwordHash: String?
    public var facebookID: String?
    public var firstName: String
    public var lastName: String
    public var nickname: String
    public var createdAt: Date
    /// A disabled account cannot log in (`onthemap-server user disable`).
    public var disabled: Bool

    /// Creates a record; `id` is set by the database.
    public init(
        id: Int64? = nil, key: String, email: String?, passwordHash: String?, facebookID: String?, firstName: String,
        lastName: String, nickname: String, createdAt: Date, disabled: Bool = false
    ) {
        self.id = id
        self.key = key
        self.email = email
        self.passwordHash = passwordHash
        self.facebookID = facebookID
        self.firstName = firstName
        self.lastName = lastName
        self.nickname = nickname
        self.createdAt = createdAt
        self.disabled = disabled
    }

    /// The record of a new account under `key`.
    init(new: NewAccount, key: String) {
        self.init(
            key: key, email: new.email, passwordHash: new.passwordHash, facebookID: new.facebookID,
            firstName: new.firstName, lastName: new.lastName, nickname: new.nickname,
            createdAt: WireTimestamp.roundedToMilliseconds(new.createdAt))
    }

    public mutating func didInsert(_ inserted: InsertionSuccess) {
        id = inserted.rowID
    }
}
