import FoundationEssentials

/// A logged-in session: what the client needs to write and to log out.
///
/// `sessionID` and `xsrfToken` are secrets: `description` redacts them, so a session can be logged.
public struct APISession: Sendable, Hashable, Codable, CustomStringConvertible {
    /// The account's key (`uniqueKey` of its pin).
    public var accountKey: String
    /// The session id from `POST /session`.
    public var sessionID: String
    /// The `XSRF-TOKEN` cookie from `POST /session`, needed by `DELETE /session`.
    public var xsrfToken: String?
    /// When the server says the session ends.
    public var expiration: Date?

    /// Creates a session.
    public init(accountKey: String, sessionID: String, xsrfToken: String?, expiration: Date?) {
        self.accountKey = accountKey
        self.sessionID = sessionID
        self.xsrfToken = xsrfToken
        self.expiration = expiration
    }

    /// Whether the server's expiration time has passed.
    public func isExpired(at now: Date = Date()) -> Bool {
        guard let expiration else { return false }
        return expiration <= now
    }

    public var description: String {
        "APISession(account: \(accountKey), id: <redacted>, expiration: \(expiration.map { "\($0)" } ?? "unknown"))"
    }
}
