import Foundation

/// How a request's session is looked up and its last use noted, the same way on every path.
public enum SessionUse {
    /// A session's `lastUsedAt` is moved at most this often: a write per authenticated request would
    /// cost more than "last used a few seconds ago" is worth to an operator.
    public static let interval: TimeInterval = 60
    /// The part of a `User-Agent` kept with a session.
    public static let maxUserAgentLength = 256
}

extension SessionStore {
    /// The session with this id if it has not expired, its last use noted (at most once per
    /// `SessionUse.interval`; a failure to note it does not fail the request).
    func liveSession(id: String, now: Date = Date()) async throws -> SessionRecord? {
        guard var session = try await session(id: id), session.expiresAt > now else { return nil }
        if session.lastUsedAt.map({ now.timeIntervalSince($0) >= SessionUse.interval }) ?? true {
            try? await markSessionUsed(id: id, at: now)
            session.lastUsedAt = now
        }
        return session
    }
}
