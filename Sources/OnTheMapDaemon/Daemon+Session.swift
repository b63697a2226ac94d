import Foundation
import OnTheMapAPI
import OnTheMapModels
import OnTheMapRPC
import Logging
import NIOConcurrencyHelpers

/// Why a session ended; subscribers read it in `sessionChanged`'s `reason`.
enum SessionEnd: String, Sendable {
    /// The user logged out.
    case loggedOut
    /// The session's expiration time passed.
    case expired
    /// The upstream refused it (revoked, logged out elsewhere, the server's data reset).
    case rejected
}

extension Daemon {
    /// Logs in upstream, learns the account's names, and fills the cache.
    func login(_ request: LoginRequest) async throws -> AccountInfo {
        // The secret is in memory for this call anyway; the log must not get it, even at trace.
        let secret: String
        switch request {
        case .udacity(_, let password): secret = password
        case .facebook(let token): secret = token
        }
        LogRedaction.register(secret)
        defer { LogRedaction.forget(secret) }
        let session = try await busy.track("login") { try await self.api.login(request) }
        let profile = try? await api.user(key: session.accountKey)
        let account = AccountInfo(
            key: session.accountKey, firstName: profile?.firstName ?? "", lastName: profile?.lastName ?? "")
        await sessions.set(session: session, account: account)
        logger.info("logged in", metadata: ["account": "\(account.key)"])
        await events.publish(.session, sessionEvent(account))
        do {
            try await refresh()
        } catch {
            logger.notice("first refresh after login failed", metadata: ["error": "\(error)"])
        }
        await publishStatus()
        return account
    }

    /// Ends the session upstream if it can, and forgets every secret and the cached students either way.
    func logout() async -> LogoutResult {
        var upstream = "ended"
        let session = await sessions.session
        if let session {
            do {
                try await busy.track("logout") { _ = try await self.api.logout(session) }
            } catch let error as APIError {
                upstream = error.kind == .unauthorized || error.kind == .forbidden
                    ? "already ended" : "not reached (\(error.message)); the session was forgotten locally"
            } catch {
                upstream = "not reached; the session was forgotten locally"
            }
        } else {
            upstream = "no session"
        }
        await endSession(.loggedOut, of: session)
        logger.info("logged out", metadata: ["upstream": "\(upstream)"])
        return LogoutResult(upstream: upstream)
    }

    /// The one place a session ends, whoever learns it (logout, the expiry, a 401 on any call, the
    /// periodic check): forgets the session and the cached students, and tells systemd and every
    /// subscriber why. Acts once per session: a late 401 for an older session leaves a newer one alone.
    func endSession(_ reason: SessionEnd, of session: APISession?) async {
        guard await sessions.clear(ifSessionID: session?.sessionID) else { return }
        await cache.clear()
        if reason != .loggedOut {
            logger.notice(
                "logged out: \(reason == .expired ? "the session expired" : "the server no longer accepts the session")")
        }
        await events.publish(.session, sessionEvent(nil, reason: reason))
        await events.publish(.students, RefreshResult(count: 0, refreshedAt: nil).wireJSON)
        await publishStatus()
    }

    /// Runs one upstream call made on behalf of `session`, shown in `busy`. The one place a 401 is
    /// read: the session is over, so the daemon logs out and the caller gets -32007.
    func upstream<T: Sendable>(
        _ activity: String, session: APISession, _ body: @escaping @Sendable () async throws -> T
    ) async throws -> T {
        do {
            return try await busy.track(activity, body)
        } catch let error as APIError where error.kind == .unauthorized {
            await endSession(.rejected, of: session)
            throw RPCError.sessionEnded
        }
    }

    /// The live session and its account, or nil. A session found expired is ended here, so the
    /// expiry is announced even when no timer noticed it first.
    func liveSession(now: Date = Date()) async -> (session: APISession, account: AccountInfo)? {
        guard let session = await sessions.session, let account = await sessions.account else { return nil }
        if session.isExpired(at: now) {
            await endSession(.expired, of: session)
            return nil
        }
        return (session, account)
    }

    /// Throws -32001 unless logged in; returns the live session and account.
    func requireLogin() async throws -> (session: APISession, account: AccountInfo) {
        guard let live = await liveSession() else { throw RPCError.notLoggedIn }
        return live
    }

    /// Asks the upstream whether it still accepts the session (`GET /session`): a revoked session,
    /// or a server whose data was reset, logs the user out now rather than at the next write. An
    /// upstream without that route (Udacity's) is not asked again.
    func verifySession() async throws {
        guard sessionCheckSupported.withLockedValue({ $0 }) else { return }
        let (session, _) = try await requireLogin()
        let supported = try await upstream("checkSession", session: session) { try await self.api.checkSession(session) }
        if !supported {
            sessionCheckSupported.withLockedValue { $0 = false }
            logger.info("the API cannot check a session (no GET /session); a revoked one shows at the next write")
        }
    }

    func sessionEvent(_ account: AccountInfo?, reason: SessionEnd? = nil) -> WireJSON {
        var members: [(String, WireJSON)] = [("loggedIn", .bool(account != nil)), ("account", account.map(\.wireJSON) ?? .null)]
        if let reason { members.append(("reason", .string(reason.rawValue))) }
        return .object(members)
    }
}

extension RPCError {
    /// -32007: the session is over (expired or refused upstream); the daemon has logged out.
    static let sessionEnded = RPCError.application(
        RPCError.sessionExpiredCode, "The session has expired or was revoked: log in again.", retryable: false)
}
