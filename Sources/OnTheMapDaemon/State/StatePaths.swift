import OnTheMapSupport
import SystemPackage

/// Where the daemon keeps what survives a restart (XDG base directories).
public struct StatePaths: Sendable, Hashable {
    /// `$XDG_STATE_HOME/onthemap/session.json`: the session, never the password.
    public var sessionFile: FilePath
    /// `$XDG_CACHE_HOME/onthemap/students.json`: the last good student list.
    public var cacheFile: FilePath
    /// `$XDG_CONFIG_HOME/onthemap/onthemapd.conf`.
    public var configFile: FilePath

    /// The XDG locations for this environment.
    public static func fromEnvironment(_ environment: [String: String]) -> StatePaths {
        func file(_ variable: String, _ fallback: String, _ name: String) -> FilePath {
            XDGDirectory.path(variable, fallback: fallback, environment: { environment[$0] }).appending("onthemap/" + name)
        }
        return StatePaths(
            sessionFile: file("XDG_STATE_HOME", ".local/state", "session.json"),
            cacheFile: file("XDG_CACHE_HOME", ".cache", "students.json"),
            configFile: file("XDG_CONFIG_HOME", ".config", "onthemapd.conf")
        )
    }
}
