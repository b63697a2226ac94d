import Foundation
import OnTheMapModels
import OnTheMapSupport
import SystemPackage

/// Everything `onthemap-server serve` can be told, with the defaults a self-hosted map wants (those
/// of `serve`).
public struct ServerConfiguration: Sendable {
    /// Interface to bind; loopback unless the map is meant to be public.
    public var host: String = "127.0.0.1"
    /// TCP port; 0 picks a free one (tests read the chosen port from the "listening on" line).
    public var port: Int = 8080
    /// Accept `POST`/`PUT /StudentLocation` without a session, as the original service did.
    public var openWrites: Bool = false
    /// How long a session lasts after login.
    public var sessionLifetime: Duration = .seconds(14 * 24 * 3600)
    /// A Graph API `/me`-compatible endpoint that verifies Facebook tokens; nil disables Facebook login.
    public var facebookVerifyURL: String?
    /// Login attempt limits.
    public var loginLimits: LoginRateLimits = LoginRateLimits()
    /// bcrypt work factor for new password hashes.
    public var bcryptCost: UInt8 = PasswordHasher.defaultCost
    /// Largest request body accepted.
    public var maxBodyBytes: Int = 64 * 1024
    /// A connection that sends nothing for this long (no complete request head, or idle between
    /// requests) is closed: Hummingbird's idle timer, which also covers a head that never ends.
    public var idleTimeout: Duration = .seconds(30)
    /// Peers whose `X-Forwarded-For` names the client (reverse proxies such as nginx).
    public var trustedProxies: Set<String> = []
    /// The application keys the Parse-era paths require.
    public var parseKeys: ParseKeys = ParseKeys()
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
    public var web: WebSettings? = WebSettings()

    /// The defaults, for another module (the synthesised memberwise init is this module's).
    public static let defaults = ServerConfiguration()

    /// `$XDG_DATA_HOME/onthemap-server/onthemap.sqlite`, falling back to `~/.local/share`.
    public static func defaultDatabasePath(environment: [String: String] = ProcessInfo.processInfo.environment)
        -> String
    {
        XDGDirectory.path("XDG_DATA_HOME", fallback: ".local/share", environment: { environment[$0] })
            .appending("onthemap-server/onthemap.sqlite").string
    }
}
