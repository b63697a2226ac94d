import FoundationEssentials
import Logging
import NIOConcurrencyHelpers
import OnTheMapAPI
import OnTheMapModels
import OnTheMapRPC

extension Daemon {
    /// Logs in upstream, learns the account's names, and fills the cache.
    func login(_ request: LoginParams) async throws -> AccountInfo {
        // The secret is in memory for this call anyway; the log must not get it, even at trace.
        let secret: String
        switch request.credentials {
        case .udacity(_, let password): secret = password
        case .facebook(let token): secret = token
        }
        LogRedaction.register(secret)
        defer { LogRedaction.forget(secret) }
        let session: APISession
        do {
            session = try await state.track("login") { try await self.api.login(request.credentials) }
        } catch let refusal as APIError where [.invalidCredentials, .forbidden, .unauthorized].contains(refusal.kind) {
            // A refused login (a disabled account, a new password) may mean the session in hand
            // was ended too: asked now, not at the next refresh, so `status` tells the truth. Only
            // when the server answered: one that cannot be reached is not waited for twice.
            if let current = state.current.session { try? await verifySession(current) }
            throw refusal
        }
        let profile: UserProfile
        do {
            profile = try await state.track("login") { try await self.api.user(key: session.accountKey) }
        } catch {
            // A pin carries its poster's names, and a login that could not learn them would post
            // nameless pins the server refuses, saying nothing now: the new session is ended, the one
            // in hand (if any) stays, and the login fails with the reason.
            await endUpstream(session, why: "the account's name could not be read")
            throw RPCError.profileUnread(RPCError.from(error))
        }
        let account = AccountInfo(key: session.accountKey, firstName: profile.firstName, lastName: profile.lastName)
        let replaced = state.current.session
        await state.logIn(session, account: account)
        logger.info("logged in", metadata: ["account": "\(account.key)"])
        if let replaced, replaced.sessionID != session.sessionID {
            await endUpstream(replaced, why: "a login replaced it")
        }
        do {
            try await refresh(checkingSession: false)
        } catch {
            logger.notice("first refresh after login failed", metadata: ["error": "\(error)"])
        }
        return account
    }

    /// Ends a session the daemon will not keep (a new login replaced it, or its login failed), as a
    /// logout would: it must not stay valid on the server until it expires. A failure is logged.
    private func endUpstream(_ session: APISession, why: String) async {
        do {
            _ = try await state.track("logout") { try await self.api.logout(session) }
            logger.info("ended a session upstream: \(why)")
        } catch {
            logger.notice(
                "could not end a session upstream (\(why)); it ends when it expires", metadata: ["error": "\(error)"])
        }
    }

    /// Ends the session upstream if it can, and forgets every secret and the cached students either way.
    func logout() async -> LogoutResult {
        let session = state.current.session
        guard let session else {
            return LogoutResult(upstream: "no session")
        }
        var upstream = "ended"
        do {
            try await state.track("logout") { _ = try await self.api.logout(session) }
        } catch let error as APIError {
            upstream = error.kind == .unauthorized || error.kind == .forbidden
                ? "already ended" : "not reached (\(error.message)); the session was forgotten locally"
        } catch {
            upstream = "not reached; the session was forgotten locally"
        }
        await endSession(.loggedOut, of: session)
        logger.info("logged out", metadata: ["upstream": "\(upstream)"])
        return LogoutResult(upstream: upstream)
    }

    /// The one place a session ends, whoever learns it (logout, the expiry, a 401 on any call, the
    /// check at each refresh). Subscribers and systemd learn it from the state's change feed. Acts
    /// once per session: a late 401 for an older session leaves a newer one alone.
    func endSession(_ reason: SessionEnd, of session: APISession?) async {
        guard await state.endSession(reason, ifSessionID: session?.sessionID) else { return }
        if reason != .loggedOut {
            logger.notice(
                "logged out: \(reason == .expired ? "the session expired" : "the server no longer accepts the session")")
        }
    }

    /// Runs one upstream call made on behalf of `session`, shown in `busy`. The one place a 401 is
    /// read: the session is over, so the daemon logs out and the caller gets -32007.
    func upstream<T: Sendable>(
        _ activity: String, session: APISession, _ body: @escaping @Sendable () async throws -> T
    ) async throws -> T {
        do {
            return try await state.track(activity, body)
        } catch let error as APIError where error.kind == .unauthorized {
            await endSession(.rejected, of: session)
            throw RPCError.sessionEnded
        }
    }

    /// The live session and its account, or nil. A session found expired is ended here, so the
    /// expiry is announced even when no timer noticed it first.
    func liveSession(now: Date = Date()) async -> (session: APISession, account: AccountInfo)? {
        let snapshot = state.current
        guard let session = snapshot.session else { return nil }
        guard let live = snapshot.liveSession(at: now) else {
            await endSession(.expired, of: session)
            return nil
        }
        return live
    }

    /// Throws -32001 unless logged in; returns the live session and account.
    func requireLogin() async throws -> (session: APISession, account: AccountInfo) {
        guard let live = await liveSession() else { throw RPCError.notLoggedIn }
        return live
    }

    /// Asks the upstream whether it still accepts the session (`GET /session`): a revoked session,
    /// or a server whose data was reset, logs the user out at the next refresh rather than at the
    /// next write. An upstream without that route (Udacity's) is not asked again.
    func verifySession(_ session: APISession) async throws {
        guard sessionCheckSupported.withLockedValue({ $0 }) else { return }
        let supported = try await upstream("checkSession", session: session) { try await self.api.checkSession(session) }
        if !supported {
            sessionCheckSupported.withLockedValue { $0 = false }
            logger.info("the API cannot check a session (no GET /session); a revoked one shows at the next write")
        }
    }
}

extension RPCError {
    /// -32007: the session is over (expired or refused upstream); the daemon has logged out.
    static let sessionEnded = RPCError.application(
        RPCError.sessionExpiredCode, "The session has expired or was revoked: log in again.", retryable: false)
}
