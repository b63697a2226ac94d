import SystemPackage

/// XDG base directories (`$XDG_DATA_HOME`, `$XDG_STATE_HOME`, …): the one rule every program here uses.
public enum XDGDirectory {
    /// `environment[variable]` when it is an absolute path, else `$HOME/fallback` (e.g. `.local/share`).
    public static func path(_ variable: String, fallback: String, environment: [String: String]) -> FilePath {
        if let value = environment[variable].map { FilePath($0) }, value.isAbsolute { return value }
        return FilePath(environment["HOME"] ?? "/tmp").appending(fallback)
    }
}
