import Foundation
import HTTPTypes
import Hummingbird
import Logging
import NIOCore
import OnTheMapModels

/// The Parse dialect's accounts, as Parse Server answers them: `/login` (GET with the credentials in
/// the query, as Parse.com's REST guide has it, or POST with them in a JSON body), `/users/me` and
/// `/logout`. A Parse client gets its session token here instead of from `/v1/session`; the token is
/// the same session either way, so it works on both dialects' paths and ends on either's logout.
struct ParseUsersController: Sendable {
    let storage: any ServerStorage
    let passwords: PasswordLogin
    /// Reverse proxies whose `X-Forwarded-For` is believed, for the per-address login limit.
    let trustedProxies: Set<String>
    let maxBodyBytes: Int

    func addRoutes(to group: RouterGroup<ServerRequestContext>) {
        group.get("login", use: login)
        group.post("login", use: login)
        group.get("users/me", use: me)
        group.post("logout", use: logout)
    }

    @Sendable func login(_ request: Request, context: ServerRequestContext) async throws -> Response {
        let (username, password) = try await credentials(request)
        let address = ClientAddress.resolve(
            peer: context.clientAddress, headers: request.headers, trustedProxies: trustedProxies)
        let verified: VerifiedLogin
        do {
            verified = try await passwords.verify(username: username, password: password, address: address, logger: context.logger)
        } catch PasswordLogin.Refusal.tooManyAttempts(let wait) {
            throw ParseFailure.tooManyRequests(wait)
        } catch PasswordLogin.Refusal.invalidCredentials {
            throw ParseFailure.invalidLogin
        } catch PasswordLogin.Refusal.disabled {
            throw ParseFailure.forbidden("this account is disabled; ask the server's operator")
        }
        let session = try await passwords.openSession(verified)
        context.logger.info("login", metadata: ["account": "\(verified.account.key)", "dialect": "parse"])
        return ParseController.json(Self.user(verified.account, sessionToken: session.id))
    }

    /// The account of the session in `X-Parse-Session-Token`, with its token, as Parse Server's
    /// `GET /users/me` answers.
    @Sendable func me(_ request: Request, context: ServerRequestContext) async throws -> Response {
        guard let token = request.headers[ParseController.sessionToken], !token.isEmpty else {
            throw ParseFailure.invalidSession("send the sessionToken from /login in X-Parse-Session-Token")
        }
        guard let session = try await storage.liveSession(id: token),
            let account = try await storage.account(key: session.accountKey)
        else { throw ParseFailure.invalidSession("the session has expired or is unknown; log in again") }
        return ParseController.json(Self.user(account, sessionToken: session.id))
    }

    /// Ends the session in `X-Parse-Session-Token`: `{}`, as Parse Server answers, also when none
    /// was sent; an unknown or expired one is its 209.
    @Sendable func logout(_ request: Request, context: ServerRequestContext) async throws -> Response {
        if let token = request.headers[ParseController.sessionToken], !token.isEmpty {
            guard let session = try await storage.liveSession(id: token), try await storage.revokeSession(id: token)
            else { throw ParseFailure.invalidSession("the session has expired or is unknown") }
            context.logger.info("logout", metadata: ["account": "\(session.accountKey)", "dialect": "parse"])
        }
        return ParseController.json(.object([]))
    }

    /// `username` (or `email`) and `password`: from a JSON body, or from the query string as Parse
    /// Server takes them when the body has none.
    private func credentials(_ request: Request) async throws -> (username: String, password: String) {
        var fields: [String: String] = [:]
        let buffer = try await request.collectBody(limit: maxBodyBytes)
        if buffer.readableBytes > 0 {
            guard let json = try? WireCoding.decode(WireJSON.self, from: buffer.readableBytesView), case .object(let members) = json else {
                throw ParseFailure.invalidJSON("the body must be a JSON object with username and password")
            }
            for (key, value) in members {
                if let text = value.stringValue { fields[key] = text }
            }
        }
        if fields["username"] == nil, fields["email"] == nil {
            let query = FormQuery.parse(request.uri.query)
            fields["username"] = query["username"]
            fields["email"] = query["email"]
            fields["password"] = fields["password"] ?? query["password"]
        }
        guard let username = (fields["username"] ?? fields["email"])?.trimmingWhitespace(), !username.isEmpty else {
            throw ParseFailure(status: .badRequest, code: 200, message: "username/email is required.")
        }
        guard let password = fields["password"], !password.isEmpty else {
            throw ParseFailure(status: .badRequest, code: 201, message: "password is required.")
        }
        return (username, password)
    }

    /// An account as a Parse `_User`: its key is the objectId, its email the username.
    static func user(_ account: AccountRecord, sessionToken: String) -> WireJSON {
        let created = WireJSON.string(WireTimestamp.milliseconds(account.createdAt))
        var members: [(String, WireJSON)] = [
            ("objectId", .string(account.key)), ("username", .string(account.email ?? account.key)),
        ]
        if let email = account.email { members.append(("email", .string(email))) }
        members += [
            ("firstName", .string(account.firstName)), ("lastName", .string(account.lastName)),
            ("nickname", .string(account.nickname)), ("createdAt", created), ("updatedAt", created),
            ("sessionToken", .string(sessionToken)),
        ]
        return .object(members)
    }
}
