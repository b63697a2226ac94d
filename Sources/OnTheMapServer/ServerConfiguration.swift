import Foundation
import OnTheMapModels
import OnTheMapSupport

/// Everything `onthemap-server serve` can be told, with the defaults a self-hosted map wants.
public struct ServerConfiguration: Sendable {
    /// Interface to bind; loopback unless the map is meant to be public.
    public var host: String
    /// TCP port; 0 picks a free one (tests read the chosen port from the "listening on" line).
    public var port: Int
    /// Accept `POST`/`PUT /StudentLocation` without a session, as the original service did.
    public var openWrites: Bool
    /// How long a session lasts after login.
    public var sessionLifetime: Duration
    /// A Graph API `/me`-compatible endpoint that verifies Facebook tokens; nil disables Facebook login.
    public var facebookVerifyURL: String?
    /// Login attempt limits.
    public var loginLimits: LoginRateLimits
    /// bcrypt work factor for new password hashes.
    public var bcryptCost: UInt8
    /// Largest request body accepted.
    public var maxBodyBytes: Int
    /// A connection that sends nothing for this long (no complete request head, or idle between
    /// requests) is closed: Hummingbird's idle timer, which also covers a head that never ends.
    public var idleTimeout: Duration
    /// Peers whose `X-Forwarded-For` names the client (reverse proxies such as nginx).
    public var trustedProxies: Set<String>
    /// The application keys the Parse-era paths require.
    public var parseKeys: ParseKeys
    /// What a password set through the server (a sign-up path) must be; `user add` and `user passwd`
    /// apply the same rule.
    public var passwordPolicy = PasswordPolicy()
    /// Connections open at once; one more is answered 503 and closed.
    public var maxConnections: Int = RequestBudget.defaultMaxConnections
    /// Bytes of request heads and bodies held at once across all connections until each request is
    /// answered; a request that does not fit is answered 503 (`RequestBudget`).
    public var maxRequestMemory: Int = RequestBudget.defaultMaxRequestMemoryMiB * 1024 * 1024
    /// How often the stored data's integrity is checked after the check at start (nil: only then).
    public var integrityCheckInterval: Duration? = IntegrityMonitor.defaultInterval
    /// The web page at `/`; nil serves none (`--no-web`).
    public var web: WebSettings?

    /// Creates a configuration; the defaults are those of `onthemap-server serve`.
    public init(
        host: String = "127.0.0.1",
        port: Int = 8080,
        openWrites: Bool = false,
        sessionLifetime: Duration = .seconds(14 * 24 * 3600),
        facebookVerifyURL: String? = nil,
        loginLimits: LoginRateLimits = LoginRateLimits(),
        bcryptCost: UInt8 = PasswordHasher.defaultCost,
        maxBodyBytes: Int = 64 * 1024,
        idleTimeout: Duration = .seconds(30),
        trustedProxies: Set<String> = [],
        parseKeys: ParseKeys = ParseKeys(),
        web: WebSettings? = WebSettings()
    ) {
        self.host = host
        self.port = port
        self.openWrites = openWrites
        self.sessionLifetime = sessionLifetime
        self.facebookVerifyURL = facebookVerifyURL
        self.loginLimits = loginLimits
        self.bcryptCost = bcryptCost
        self.maxBodyBytes = maxBodyBytes
        self.idleTimeout = idleTimeout
        self.trustedProxies = trustedProxies
        self.parseKeys = parseKeys
        self.web = web
    }

    /// `$XDG_DATA_HOME/onthemap-server/onthemap.sqlite`, falling back to `~/.local/share`.
    public static func defaultDatabasePath(environment: [String: String] = ProcessInfo.processInfo.environment)
        -> String
    {
        var environment = environment
        environment["HOME"] = environment["HOME"] ?? NSHomeDirectory()
        return XDGDirectory.path("XDG_DATA_HOME", fallback: ".local/share", environment: environment)
            + "/onthemap-server/onthemap.sqlite"
    }
}
