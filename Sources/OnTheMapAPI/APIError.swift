/// Everything that can go wrong talking to the OnTheMap web API, each with a message a person can act on.
///
/// A struct with a private code, so cases can be added without breaking callers
/// (the shape of swift-service-lifecycle's `ServiceGroupError`).
public struct APIError: Error, Sendable, Hashable, CustomStringConvertible {
    fileprivate enum Code: Hashable, Sendable {
        case invalidCredentials
        case badRequest
        case unauthorized
        case forbidden
        case notFound
        case rateLimited
        case unreachable
        case upstreamError
        case malformedResponse
    }

    /// What kind of failure this is; compare with `==` against the static members.
    public struct Kind: Hashable, Sendable, CustomStringConvertible {
        fileprivate let code: Code

        /// Username/password or Facebook token rejected (HTTP 403 on login).
        public static let invalidCredentials = Kind(code: .invalidCredentials)
        /// The request was refused as malformed (HTTP 400, 413, 422).
        public static let badRequest = Kind(code: .badRequest)
        /// The session is missing, unknown or expired (HTTP 401): log in again.
        public static let unauthorized = Kind(code: .unauthorized)
        /// The session may not do this, e.g. move someone else's pin (HTTP 403 outside login).
        public static let forbidden = Kind(code: .forbidden)
        /// No such user or location (HTTP 404).
        public static let notFound = Kind(code: .notFound)
        /// Too many attempts (HTTP 429).
        public static let rateLimited = Kind(code: .rateLimited)
        /// No answer: connection refused, DNS, TLS or timeout.
        public static let unreachable = Kind(code: .unreachable)
        /// The server failed (HTTP 5xx).
        public static let upstreamError = Kind(code: .upstreamError)
        /// The server answered something that is not the API's format.
        public static let malformedResponse = Kind(code: .malformedResponse)

        public var description: String { "\(code)" }
    }

    /// The kind of failure.
    public let kind: Kind
    /// What happened and what to do, for a person. Never contains a password, session id or token.
    public let message: String
    /// The HTTP status, when the server answered.
    public let status: Int?
    /// With `rateLimited`: how many seconds the server asks to wait (`Retry-After`), when it says.
    public let retryAfter: Int?

    /// Whether the same request may succeed later without the user changing anything.
    public var isRetryable: Bool {
        switch kind.code {
        case .unreachable, .upstreamError, .rateLimited: true
        default: false
        }
    }

    public var description: String { message }

    init(_ kind: Kind, _ message: String, status: Int? = nil, retryAfter: Int? = nil) {
        self.kind = kind
        self.message = message
        self.status = status
        self.retryAfter = retryAfter
    }
}
