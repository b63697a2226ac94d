import Glibc
import SystemPackage

/// XDG base directories (`$XDG_DATA_HOME`, `$XDG_STATE_HOME`, …): the one rule every program here uses.
public enum XDGDirectory {
    /// `$variable` when it is an absolute path, else `home/fallback` (e.g. `.local/share`). `environment`
    /// looks a variable up: a function, so the client builds no dictionary of its environment for it.
    public static func path(_ variable: String, fallback: String, environment: (String) -> String?) -> FilePath {
        if let value = environment(variable).map({ FilePath($0) }), value.isAbsolute { return value }
        return home(environment).appending(fallback)
    }

    /// `$HOME` when it is an absolute path, else the account's home (passwd), else `/`: never a
    /// relative path, which would put a session's secret in whatever folder a program started in.
    static func home(_ environment: (String) -> String?) -> FilePath {
        let account = getpwuid(getuid()).flatMap { $0.pointee.pw_dir.map { String(cString: $0) } }
        return [environment("HOME"), account].lazy.compactMap { $0.map { FilePath($0) } }.first { $0.isAbsolute } ?? "/"
    }
}
