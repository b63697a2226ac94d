import AsyncHTTPClient
import Dispatch
import FoundationEssentials
import Logging
import NIOCore
import NIOHTTP1
import OnTheMapModels
import OnTheMapSupport

/// A client for the OnTheMap web API: Udacity's service or an `onthemap-server`.
///
/// Every method throws `APIError`. Nothing it logs contains a password, session id or token.
public final class OnTheMapAPIClient: Sendable {
    /// Where the API is and the timeouts.
    public let configuration: APIConfiguration
    let httpClient: HTTPClient
    let ownsHTTPClient: Bool
    let logger: Logger

    /// Creates a client with its own connection pool; call `shutdown()` when done.
    public convenience init(configuration: APIConfiguration, logger: Logger = Logger(label: "onthemap.api")) {
        var httpConfiguration = HTTPClient.Configuration()
        httpConfiguration.timeout = .init(
            connect: .init(configuration.connectTimeout),
            read: .init(configuration.readTimeout)
        )
        httpConfiguration.redirectConfiguration = .disallow
        // A refused connection is an answer: report it at once instead of retrying until the connect
        // timeout, so the daemon marks its list stale and tells the user without a 5 s wait.
        httpConfiguration.connectionPool.retryConnectionEstablishment = false
        let httpClient = HTTPClient(eventLoopGroupProvider: .singleton, configuration: httpConfiguration)
        self.init(configuration: configuration, httpClient: httpClient, ownsHTTPClient: true, logger: logger)
    }

    /// Creates a client over an existing `HTTPClient`, which the caller keeps and shuts down.
    public convenience init(configuration: APIConfiguration, httpClient: HTTPClient, logger: Logger) {
        self.init(configuration: configuration, httpClient: httpClient, ownsHTTPClient: false, logger: logger)
    }

    private init(configuration: APIConfiguration, httpClient: HTTPClient, ownsHTTPClient: Bool, logger: Logger) {
        self.configuration = configuration
        self.httpClient = httpClient
        self.ownsHTTPClient = ownsHTTPClient
        self.logger = logger
    }

    /// Closes the connection pool if this client created it.
    public func shutdown() async throws {
        if ownsHTTPClient { try await httpClient.shutdown() }
    }

    // MARK: Session

    /// `POST /session`: logs in and returns the session, including the `XSRF-TOKEN` cookie.
    public func login(_ request: LoginRequest) async throws -> APISession {
        let reply = try await send(.POST, "/session", body: request, purpose: .login)
        let response: SessionResponse = try decode(reply)
        return APISession(
            accountKey: response.account.key,
            sessionID: response.session.id,
            xsrfToken: reply.cookie(named: OnTheMapHeaders.xsrfCookie),
            expiration: response.session.expirationDate
        )
    }

    /// `DELETE /session`: ends the session upstream, echoing the XSRF cookie in `X-XSRF-TOKEN`.
    @discardableResult
    public func logout(_ session: APISession) async throws -> SessionInfo {
        var headers: [(String, String)] = []
        if let token = session.xsrfToken {
            headers.append((OnTheMapHeaders.xsrfToken, token))
            headers.append(("Cookie", "\(OnTheMapHeaders.xsrfCookie)=\(token)"))
        }
        let reply = try await send(.DELETE, "/session", headers: headers, purpose: .session)
        let response: LogoutResponse = try decode(reply)
        return response.session
    }

    /// `GET /session` (`onthemap-server`; not in Udacity's API): true while the server accepts the
    /// session; throws `.unauthorized` once it does not; false when the server has no such route.
    public func checkSession(_ session: APISession) async throws -> Bool {
        do {
            _ = try await send(.GET, "/session", headers: Self.sessionHeaders(session), purpose: .session)
            return true
        } catch let error as APIError where error.status == 404 || error.status == 405 {
            return false
        }
    }

    // MARK: Users

    /// `GET /users/{key}`: the account's public names.
    public func user(key: String) async throws -> UserProfile {
        let reply = try await send(.GET, "/users/\(Self.pathSegment(key))", purpose: .read)
        return try decode(reply)
    }

    // MARK: Student locations

    /// `GET /StudentLocation`: records that cannot be placed on a map are in `skipped`, not thrown.
    public func studentLocations(_ query: StudentLocationQuery = .mostRecent) async throws -> StudentLocationList {
        let reply = try await send(.GET, "/StudentLocation", query: query.queryItems, purpose: .read)
        return try await decodeList(reply)
    }

    /// `GET /StudentLocation` sent with `If-None-Match: ifNoneMatch` (the `etag` of the list the
    /// caller holds, nil for none): `.notModified` when the server says the list is still that one
    /// (a 304 with no body, which costs it no query), else the list and its new `ETag`. A server that
    /// ignores the header (Udacity's) always answers the list, with no tag.
    public func studentLocations(_ query: StudentLocationQuery = .mostRecent, ifNoneMatch: String?) async throws
        -> StudentLocationsResult
    {
        let reply = try await send(
            .GET, "/StudentLocation", query: query.queryItems, headers: ifNoneMatch.map { [("If-None-Match", $0)] } ?? [],
            purpose: .read, alsoAccepting: ifNoneMatch == nil ? [] : [304])
        let etag = reply.headers.first(name: "ETag")
        if reply.status == 304 { return .notModified(etag: etag ?? ifNoneMatch ?? "") }
        return .list(try await decodeList(reply), etag: etag)
    }

    /// A list read on a thread of its own: a page of 1,000 takes milliseconds to decode, and the
    /// caller's thread serves other requests (the daemon's connections).
    private func decodeList(_ reply: Reply) async throws -> StudentLocationList {
        try await Self.decoding.perform { try self.decode(reply) as StudentLocationList }
    }

    /// Where lists are decoded (a serial queue: see `DispatchQueue.perform`).
    private static let decoding = DispatchQueue(label: "onthemap.api-decoding")

    /// `POST /StudentLocation`. `session` authorizes the write on servers that require it.
    public func createStudentLocation(
        _ draft: StudentLocationDraft,
        session: APISession?
    ) async throws -> CreatedLocation {
        let reply = try await send(
            .POST, "/StudentLocation", headers: Self.sessionHeaders(session), body: draft, purpose: .write)
        return try decode(reply)
    }

    /// `PUT /StudentLocation/{objectId}`. `session` authorizes the write on servers that require it.
    public func updateStudentLocation(
        objectId: String,
        _ draft: StudentLocationDraft,
        session: APISession?
    ) async throws -> UpdatedLocation {
        let reply = try await send(
            .PUT, "/StudentLocation/\(Self.pathSegment(objectId))", headers: Self.sessionHeaders(session),
            body: draft, purpose: .write)
        return try decode(reply)
    }

    private static func sessionHeaders(_ session: APISession?) -> [(String, String)] {
        guard let session else { return [] }
        return [(OnTheMapHeaders.session, session.sessionID)]
    }

    /// `value` as one path segment: every byte but RFC 3986's unreserved characters percent-encoded.
    static func pathSegment(_ value: String) -> String {
        var segment = ""
        for byte in value.utf8 {
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"),
                UInt8(ascii: "~"):
                segment.unicodeScalars.append(Unicode.Scalar(byte))
            default:
                let hex = String(byte, radix: 16, uppercase: true)
                segment += "%" + (byte < 16 ? "0" : "") + hex
            }
        }
        return segment
    }
}
