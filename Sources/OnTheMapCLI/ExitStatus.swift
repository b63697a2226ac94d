/// The exit codes scripts can branch on (also in `--help` and the README).
public enum ExitStatus {
    public static let ok: Int32 = 0
    /// The daemon answered with an error.
    public static let daemonError: Int32 = 1
    /// The daemon cannot be reached.
    public static let unreachable: Int32 = 2
    /// Not logged in (or the session expired).
    public static let notLoggedIn: Int32 = 3
    /// Usage error.
    public static let usage: Int32 = 64

    static let help = """
        Exit status: 0 ok; 1 the daemon answered with an error, or the command could not do its job; \
        2 the daemon cannot be reached; 3 not logged in; 64 usage error.
        """
}
