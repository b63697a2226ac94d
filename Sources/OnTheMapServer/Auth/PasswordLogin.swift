import Foundation
import Logging
import OnTheMapModels

/// A login by email and password, the same for both dialects (`POST /v1/session` and Parse's
/// `/login`): the attempt is counted against the limits first, then the password is checked, then a
/// session is opened. Each dialect only reads its own request and words the refusals its own way.
struct PasswordLogin: Sendable {
    let storage: any ServerStorage
    let hasher: PasswordHasher
    let limiter: LoginRateLimiter
    let sessionLifetime: Duration

    /// Why a login was refused.
    enum Refusal: Error {
        /// Too many attempts from the address or against the account: try again after the wait.
        case tooManyAttempts(Duration)
        /// No such account, or the wrong password (never said which).
        case invalidCredentials
        /// The account exists and the password is right, but an operator disabled it.
        case disabled
    }

    /// The account these credentials open, with the attempt count its session will forget; throws
    /// `Refusal` (or a storage error).
    func verify(username: String, password: String, address: String?, logger: Logger) async throws -> VerifiedLogin {
        let accountName = username.lowercased()
        // Counted before the password is checked, so concurrent guesses cannot all pass the limit.
        if let wait = try await limiter.admit(account: accountName, address: address) {
            throw Refusal.tooManyAttempts(wait)
        }
        let account = try await storage.account(email: username)
        guard try await hasher.verify(password, hash: account?.passwordHash), let account else {
            logger.notice("login refused", metadata: ["address": "\(address ?? "-")"])
            throw Refusal.invalidCredentials
        }
        guard !account.disabled else { throw Refusal.disabled }
        return VerifiedLogin(account: account, attemptsToForget: LoginRateLimiter.subjects(account: accountName))
    }

    /// Opens a session for a verified login (by password or, on `/v1/session`, by Facebook), noting
    /// where it came from: one write, which also forgets the account's failed attempts.
    func openSession(
        _ login: VerifiedLogin, clientAddress: String? = nil, userAgent: String? = nil, now: Date = Date()
    ) async throws -> SessionRecord {
        let session = SessionRecord(
            id: SecretGenerator.sessionID(now: now), xsrfToken: SecretGenerator.token(), accountKey: login.account.key,
            createdAt: now, expiresAt: now.addingTimeInterval(sessionLifetime.seconds), clientAddress: clientAddress,
            userAgent: userAgent)
        try await storage.insertSession(session, now: now, forgettingAttemptsOf: login.attemptsToForget)
        return session
    }
}

/// Whose credentials were good, and the attempt count their session, once stored, forgets.
struct VerifiedLogin: Sendable {
    var account: AccountRecord
    var attemptsToForget: [String]
}
