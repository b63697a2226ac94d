import FoundationEssentials
import OnTheMapModels
import OnTheMapSupport

/// Where the daemon keeps what survives a restart (XDG base directories).
public struct StatePaths: Sendable, Hashable {
    /// `$XDG_STATE_HOME/onthemap/session.json`: the session, never the password.
    public var sessionFile: String
    /// `$XDG_CACHE_HOME/onthemap/students.json`: the last good student list.
    public var cacheFile: String
    /// `$XDG_CONFIG_HOME/onthemap/onthemapd.conf`.
    public var configFile: String

    /// Creates explicit paths.
    public init(sessionFile: String, cacheFile: String, configFile: String) {
        self.sessionFile = sessionFile
        self.cacheFile = cacheFile
        self.configFile = configFile
    }

    /// The XDG locations for this environment.
    public static func fromEnvironment(_ environment: [String: String]) -> StatePaths {
        var environment = environment
        environment["HOME"] = environment["HOME"] ?? FileManager.default.homeDirectoryForCurrentUser.path
        func base(_ variable: String, _ fallback: String) -> String {
            XDGDirectory.path(variable, fallback: fallback, environment: environment)
        }
        return StatePaths(
            sessionFile: base("XDG_STATE_HOME", ".local/state") + "/onthemap/session.json",
            cacheFile: base("XDG_CACHE_HOME", ".cache") + "/onthemap/students.json",
            configFile: base("XDG_CONFIG_HOME", ".config") + "/onthemap/onthemapd.conf"
        )
    }
}
