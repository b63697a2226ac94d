import FoundationEssentials

/// The body answering `POST /session` (after the XSSI prefix).
public struct SessionResponse: Sendable, Hashable, Codable {
    /// `{"registered":true,"key":"…"}`.
    public struct Account: Sendable, Hashable, Codable {
        public var registered: Bool
        public var key: String

        /// Creates an account reference.
        public init(registered: Bool, key: String) {
            self.registered = registered
            self.key = key
        }

        enum CodingKeys: String, CodingKey {
            case registered, key
        }

        public init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            registered = (try? container.decodeIfPresent(Bool.self, forKey: .registered)) ?? true
            let key = try container.decode(String.self, forKey: .key)
            guard !key.isEmpty else {
                throw DecodingError.dataCorruptedError(
                    forKey: .key, in: container, debugDescription: "account key is missing")
            }
            self.key = key
        }
    }

    public var account: Account
    public var session: SessionInfo

    /// Creates a response.
    public init(account: Account, session: SessionInfo) {
        self.account = account
        self.session = session
    }
}

/// `{"id":"…","expiration":"…"}`: a session as the API describes it.
///
/// `id` is a secret: `description` redacts it so a session can be logged.
public struct SessionInfo: Sendable, Hashable, Codable, CustomStringConvertible {
    public var id: String
    /// ISO-8601, as the server wrote it.
    public var expiration: String

    /// Creates a session description.
    public init(id: String, expiration: String) {
        self.id = id
        self.expiration = expiration
    }

    /// `expiration` as a date, when it parses.
    public var expirationDate: Date? { WireTimestamp.parse(expiration) }

    public var description: String { "session(id: <redacted>, expiration: \(expiration))" }
}

/// The body answering `DELETE /session`.
public struct LogoutResponse: Sendable, Hashable, Codable {
    public var session: SessionInfo

    /// Creates a response.
    public init(session: SessionInfo) {
        self.session = session
    }
}
