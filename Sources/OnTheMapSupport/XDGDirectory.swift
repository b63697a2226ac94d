/// XDG base directories (`$XDG_DATA_HOME`, `$XDG_STATE_HOME`, …): the one rule every program here uses.
public enum XDGDirectory {
    /// `environment[variable]` when it is an absolute path, else `$HOME/fallback` (e.g. `.local/share`).
    public static func path(_ variable: String, fallback: String, environment: [String: String]) -> String {
        if let value = environment[variable], value.hasPrefix("/") { return value }
        return (environment["HOME"] ?? "/tmp") + "/" + fallback
    }
}
