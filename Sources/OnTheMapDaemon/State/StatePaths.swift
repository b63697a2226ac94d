import Foundation
import OnTheMapModels

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
        environment["HOME"] = environment["HOME"] ?? NSHomeDirectory()
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

/// Writes a file atomically (temp file, fsync, rename) with mode 0600 in a 0700 directory.
enum PrivateFile {
    static func write(_ data: Data, to path: String) throws {
        let directory = (path as NSString).deletingLastPathComponent
        try FileManager.default.createDirectory(
            atPath: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        let temporary = path + ".tmp-\(getpid())"
        let fd = open(temporary, O_CREAT | O_TRUNC | O_WRONLY, 0o600)
        guard fd >= 0 else { throw CocoaError(.fileWriteNoPermission) }
        let written = data.withUnsafeBytes { Foundation.write(fd, $0.baseAddress, $0.count) }
        fsync(fd)
        close(fd)
        guard written == data.count, rename(temporary, path) == 0 else {
            unlink(temporary)
            throw CocoaError(.fileWriteUnknown)
        }
    }

    static func remove(_ path: String) {
        unlink(path)
    }
}
