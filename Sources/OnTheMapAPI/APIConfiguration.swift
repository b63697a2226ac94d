/// Where the API is and how long to wait for it.
public struct APIConfiguration: Sendable, Hashable {
    /// The Udacity service the iOS app used.
    public static let udacityBaseURL = "https://onthemap-api.udacity.com/v1"

    /// Base URL without a trailing slash, e.g. `http://127.0.0.1:8080` or `udacityBaseURL`.
    public var baseURL: String
    /// Time to establish a TCP (and TLS) connection.
    public var connectTimeout: Duration
    /// Longest silence while waiting for response bytes.
    public var readTimeout: Duration
    /// Whole request, start to last byte.
    public var requestTimeout: Duration
    /// Larger responses are treated as malformed rather than read into memory.
    public var maxResponseBytes: Int
    /// Sent as `User-Agent`.
    public var userAgent: String

    /// Creates a configuration; defaults suit the public service.
    public init(
        baseURL: String = udacityBaseURL,
        connectTimeout: Duration = .seconds(5),
        readTimeout: Duration = .seconds(15),
        requestTimeout: Duration = .seconds(30),
        maxResponseBytes: Int = 32 * 1024 * 1024,
        userAgent: String = "onthemap-linux/0.1"
    ) {
        var trimmed = baseURL
        while trimmed.hasSuffix("/") { trimmed.removeLast() }
        self.baseURL = trimmed
        self.connectTimeout = connectTimeout
        self.readTimeout = readTimeout
        self.requestTimeout = requestTimeout
        self.maxResponseBytes = maxResponseBytes
        self.userAgent = userAgent
    }

    /// The base URL as messages and clients show it: without a user and password in it.
    public var shownURL: String { Self.withoutUserInfo(baseURL) }

    /// `https://user:secret@host/v1` as `https://host/v1`; any other text as it is.
    public static func withoutUserInfo(_ text: String) -> String {
        guard let scheme = text.firstRange(of: "://") else { return text }
        let authority = text[scheme.upperBound...].prefix { $0 != "/" && $0 != "?" && $0 != "#" }
        guard let at = authority.lastIndex(of: "@") else { return text }
        return String(text[..<scheme.upperBound]) + String(text[text.index(after: at)...])
    }
}
