import Foundation
import GRDB

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

    public mutating func didInsert(_ inserted: InsertionSuccess) {
        id = inserted.rowID
    }
}
