/// What `POST /session` accepts: Udacity credentials or a Facebook access token.
///
/// Its `description` never shows the password or the token, so it is safe to log.
public enum LoginRequest: Sendable, Hashable, Encodable, CustomStringConvertible {
    case udacity(username: String, password: String)
    case facebook(accessToken: String)

    public func encode(to encoder: any Encoder) throws {
        switch self {
        case .udacity(let username, let password):
            try LoginRequestBody(udacity: .init(username: username, password: password)).encode(to: encoder)
        case .facebook(let accessToken):
            try LoginRequestBody(facebookMobile: .init(accessToken: accessToken)).encode(to: encoder)
        }
    }

    public var description: String {
        switch self {
        case .udacity(let username, _): "udacity(username: \(username), password: <redacted>)"
        case .facebook: "facebook(accessToken: <redacted>)"
        }
    }
}

/// The raw body of `POST /session`, every field optional so a server can say which one is missing.
public struct LoginRequestBody: Sendable, Hashable, Codable {
    /// `{"username":…,"password":…}`.
    public struct Credentials: Sendable, Hashable, Codable {
        public var username: String?
        public var password: String?

        /// Creates credentials.
        public init(username: String?, password: String?) {
            self.username = username
            self.password = password
        }
    }

    /// `{"access_token":…}`.
    public struct FacebookToken: Sendable, Hashable, Codable {
        public var accessToken: String?

        /// Creates a token holder.
        public init(accessToken: String?) {
            self.accessToken = accessToken
        }

        enum CodingKeys: String, CodingKey {
            case accessToken = "access_token"
        }
    }

    public var udacity: Credentials?
    public var facebookMobile: FacebookToken?

    /// Creates a body.
    public init(udacity: Credentials? = nil, facebookMobile: FacebookToken? = nil) {
        self.udacity = udacity
        self.facebookMobile = facebookMobile
    }

    enum CodingKeys: String, CodingKey {
        case udacity
        case facebookMobile = "facebook_mobile"
    }
}
