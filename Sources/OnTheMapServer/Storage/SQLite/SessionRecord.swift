import Foundation
import GRDB

/// A row of `session`: a login, until it expires or is deleted.
public struct SessionRecord: Codable, Sendable, Hashable, FetchableRecord, PersistableRecord {
    public static let databaseTableName = "session"

    /// The session id the client sends back on writes.
    public var id: String
    /// Value of the `XSRF-TOKEN` cookie; `DELETE /session` must echo it.
    public var xsrfToken: String
    public var accountKey: String
    public var createdAt: Date
    public var expiresAt: Date

    /// Creates a record.
    public init(id: String, xsrfToken: String, accountKey: String, createdAt: Date, expiresAt: Date) {
        self.id = id
        self.xsrfToken = xsrfToken
        self.accountKey = accountKey
        self.createdAt = createdAt
        self.expiresAt = expiresAt
    }
}
