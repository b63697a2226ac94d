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
    /// When a request last showed this session (to within `SessionUse.interval`); nil: not since login.
    public var lastUsedAt: Date?
    /// The address the login came from (the client's, through a trusted proxy), for `session list`.
    public var clientAddress: String?
    /// The login's `User-Agent`, cut to `SessionUse.maxUserAgentLength` characters.
    public var userAgent: String?

    /// Creates a record.
    public init(
        id: String, xsrfToken: String, accountKey: String, createdAt: Date, expiresAt: Date, lastUsedAt: Date? = nil,
        clientAddress: String? = nil, userAgent: String? = nil
    ) {
        self.id = id
        self.xsrfToken = xsrfToken
        self.accountKey = accountKey
        self.createdAt = createdAt
        self.expiresAt = expiresAt
        self.lastUsedAt = lastUsedAt
        self.clientAddress = clientAddress
        self.userAgent = userAgent.map { String($0.prefix(SessionUse.maxUserAgentLength)) }
    }
}
