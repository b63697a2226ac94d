/// The version of OnTheMap for Linux: the one place it is written.
///
/// `--version` of all three programs, the daemon's `status` and `rpc.discover`, and the Debian
/// packages (`make deb` reads it from this file) all take it from here.
public enum OnTheMapVersion {
    /// The release, as `MAJOR.MINOR.PATCH`.
    public static let string = "0.1.0"
}
