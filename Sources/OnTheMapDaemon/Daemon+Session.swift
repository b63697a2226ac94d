import Foundation
import OnTheMapAPI
import OnTheMapModels
import OnTheMapRPC
import Logging

extension Daemon {
    /// Logs in upstream, learns the account's names, and fills the cache.
    func login(_ request: LoginRequest) async throws -> AccountInfo {
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
    func logout() async -> WireJSON {
        var upstream = "ended"
        if let session = await sessions.session {
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
        await forgetSession()
        logger.info("logged out", metadata: ["upstream": "\(upstream)"])
        return .object([("loggedOut", .bool(true)), ("upstream", .string(upstream))])
    }

    /// Clears the session and cache (logout, or a session the upstream rejected) and tells subscribers.
    func forgetSession() async {
        await sessions.clear()
        await cache.clear()
        await events.publish(.session, sessionEvent(nil))
        await events.publish(.students, .object([("count", .integer(0)), ("refreshedAt", .null)]))
        await publishStatus()
    }

    /// Turns an upstream rejection of our session into -32007, logging out first.
    func handleSessionRejection<T>(_ body: () async throws -> T) async throws -> T {
        do {
            return try await body()
        } catch let error as APIError where error.kind == .unauthorized {
            logger.notice("the upstream rejected the session; logged out")
            await forgetSession()
            throw RPCError.application(
                RPCError.sessionExpiredCode, "The session has expired or was revoked: log in again.", retryable: false)
        }
    }

    func sessionEvent(_ account: AccountInfo?) -> WireJSON {
        .object([("loggedIn", .bool(account != nil)), ("account", account.map(\.wireJSON) ?? .null)])
    }
}

extension AccountInfo {
    var wireJSON: WireJSON {
        .object([("key", .string(key)), ("firstName", .string(firstName)), ("lastName", .string(lastName))])
    }
}
