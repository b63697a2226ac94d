import Foundation
import HTTPTypes
import Hummingbird
import Logging
import OnTheMapModels

/// `POST /session` (log in), `GET /session` (is this session still good?) and `DELETE /session` (log out).
struct SessionController: Sendable {
    let storage: any ServerStorage
    /// The password check, the login limits and the session lifetime, shared with the Parse
    /// dialect's `/login`.
    let passwords: PasswordLogin
    let facebook: FacebookTokenVerifier?
    /// Reverse proxies whose `X-Forwarded-For` is believed.
    let trustedProxies: Set<String>
    /// Larger bodies get 413.
    let maxBodyBytes: Int

    func addRoutes(to group: RouterGroup<ServerRequestContext>) {
        group.post(use: login)
        group.get(use: current)
        group.delete(use: logout)
    }

    @Sendable func login(_ request: Request, context: ServerRequestContext) async throws -> Response {
        let body = try await request.decodeJSONBody(LoginRequestBody.self, limit: maxBodyBytes)
        let login: VerifiedLogin
        let address = ClientAddress.resolve(
            peer: context.clientAddress, headers: request.headers, trustedProxies: trustedProxies)
        switch (body.udacity, body.facebookMobile) {
        case (let credentials?, nil):
            login = try await passwordLogin(credentials, address: address, context: context)
        case (nil, let token?):
            login = VerifiedLogin(account: try await facebookLogin(token, address: address), attemptsToForget: [])
        case (.some, .some):
            throw APIFailure.badRequest("Send either udacity or facebook_mobile credentials, not both.")
        case (nil, nil):
            throw APIFailure.badRequest(
                "The body must hold udacity {username, password} or facebook_mobile {access_token}.")
        }
        let account = login.account
        guard !account.disabled else { throw Self.disabled }
        let session = try await passwords.openSession(login, clientAddress: address, userAgent: request.headers[.userAgent])
        context.logger.debug("login", metadata: ["account": "\(account.key)"])
        var response = Response.json(
            SessionResponse(
                account: .init(registered: true, key: account.key),
                session: SessionInfo(id: session.id, expiration: WireTimestamp.microseconds(session.expiresAt))),
            prefixed: true)
        response.headers.append(
            Self.xsrfCookie(session.xsrfToken, maxAge: passwords.sessionLifetime.components.seconds, request: request))
        return response
    }

    private func passwordLogin(
        _ credentials: LoginRequestBody.Credentials, address: String?, context: ServerRequestContext
    ) async throws -> VerifiedLogin
    {
        guard let username = credentials.username?.trimmingWhitespace(), !username.isEmpty else {
            throw APIFailure.badRequest("The field udacity.username is required.")
        }
        // Refused before it is counted: the attempts are kept by name, and a 50 KB name would be
        // written to the database with each refusal.
        guard username.utf8.count <= ShownText.maxEmailBytes else {
            throw APIFailure.badRequest(
                "The field udacity.username is longer than an email address can be (\(ShownText.maxEmailBytes) bytes).")
        }
        guard let password = credentials.password, !password.isEmpty else {
            throw APIFailure.badRequest("The field udacity.password is required.")
        }
        do {
            return try await passwords.verify(username: username, password: password, address: address, logger: context.logger)
        } catch PasswordLogin.Refusal.tooManyAttempts(let wait) {
            throw Self.tooManyAttempts(wait)
        } catch PasswordLogin.Refusal.invalidCredentials {
            throw APIFailure(.forbidden, "Account not found or invalid credentials.")
        } catch PasswordLogin.Refusal.disabled {
            throw Self.disabled
        }
    }

    private func facebookLogin(_ token: LoginRequestBody.FacebookToken, address: String?) async throws -> AccountRecord
    {
        guard let accessToken = token.accessToken, !accessToken.isEmpty else {
            throw APIFailure.badRequest("The field facebook_mobile.access_token is required.")
        }
        guard let facebook else {
            throw APIFailure(.forbidden, "Facebook login is not enabled on this server; log in with email and password.")
        }
        if let wait = try await passwords.limiter.admit(account: nil, address: address) {
            throw Self.tooManyAttempts(wait)
        }
        let identity = try await facebook.verify(accessToken: accessToken)
        return try await storage.facebookAccount(
            facebookID: identity.id, firstName: identity.firstName ?? "", lastName: identity.lastName ?? "", now: Date())
    }

    /// The session named in the `X-OnTheMap-Session` header, if it is live: a cheap check that lets
    /// a client (the daemon) learn at once that its session was revoked or the server's data reset.
    @Sendable func current(_ request: Request, context: ServerRequestContext) async throws -> Response {
        guard let id = request.headers[HTTPField.Name(OnTheMapHeaders.session)!], !id.isEmpty else {
            throw APIFailure(.unauthorized, "Send the session id in the \(OnTheMapHeaders.session) header.")
        }
        guard let session = try await storage.liveSession(id: id) else {
            throw APIFailure(.unauthorized, "The session has expired or is unknown; log in again.")
        }
        return Response.json(
            SessionResponse(
                account: .init(registered: true, key: session.accountKey),
                session: SessionInfo(id: session.id, expiration: WireTimestamp.microseconds(session.expiresAt))),
            prefixed: true)
    }

    @Sendable func logout(_ request: Request, context: ServerRequestContext) async throws -> Response {
        guard let token = request.headers[HTTPField.Name(OnTheMapHeaders.xsrfToken)!], !token.isEmpty else {
            throw APIFailure(.forbidden, "Missing X-XSRF-TOKEN header: send the XSRF-TOKEN cookie's value in it.")
        }
        if let cookie = request.cookies[OnTheMapHeaders.xsrfCookie]?.value, cookie != token {
            throw APIFailure(.forbidden, "The X-XSRF-TOKEN header does not match the XSRF-TOKEN cookie.")
        }
        guard let session = try await storage.deleteSession(xsrfToken: token) else {
            throw APIFailure(.forbidden, "No session has this XSRF token; it may already be logged out.")
        }
        context.logger.debug("logout", metadata: ["account": "\(session.accountKey)"])
        var response = Response.json(
            LogoutResponse(session: SessionInfo(id: session.id, expiration: WireTimestamp.microseconds(Date()))),
            prefixed: true)
        response.headers.append(Self.xsrfCookie("", maxAge: 0, request: request))
        return response
    }

    /// The `XSRF-TOKEN` cookie, `Secure` when a proxy says the client came over TLS
    /// (`X-Forwarded-Proto: https`), so the browser never sends it over plain HTTP.
    ///
    /// Written by hand: Hummingbird's `Cookie` keeps attributes in a dictionary, so their order
    /// would change between runs, and the wire is meant to be byte-stable.
    static func xsrfCookie(_ token: String, maxAge: Int64, request: Request) -> HTTPField {
        let proto = request.headers[HTTPField.Name("X-Forwarded-Proto")!]?.split(separator: ",").first
        let secure = proto?.trimmingWhitespace().lowercased() == "https" ? "; Secure" : ""
        return HTTPField(
            name: .setCookie, value: "\(OnTheMapHeaders.xsrfCookie)=\(token); Max-Age=\(maxAge); Path=/; SameSite=Strict\(secure)")
    }

    /// 423 Locked, not the 403 of wrong credentials: the password was right, and a client that
    /// tells the two apart (`OnTheMapAPI`) says "disabled" instead of "check the email and password".
    private static var disabled: APIFailure {
        APIFailure(HTTPResponse.Status(code: 423, reasonPhrase: "Locked"), "This account is disabled; ask the server's operator.")
    }

    /// The wait once, in words ("try again in 1 minute"); `Retry-After` has it in seconds for programs.
    static func tooManyAttempts(_ wait: Duration) -> APIFailure {
        let refusal = TooManyRequests("login attempts", wait: Int(wait.components.seconds))
        return APIFailure(.tooManyRequests, refusal.message, headers: refusal.headers)
    }
}
