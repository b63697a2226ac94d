#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Where the daemon's socket is: the one function the daemon and every client use.
public enum SocketPath {
    /// `--socket PATH`, else `$ONTHEMAP_SOCKET`, else `$XDG_RUNTIME_DIR/onthemap/onthemapd.sock`,
    /// else `/tmp/onthemap-$UID/onthemapd.sock`.
    public static func resolve(flag: String?, environment: [String: String], uid: UInt32 = getuid()) -> String {
        if let flag, !flag.isEmpty { return flag }
        if let path = environment["ONTHEMAP_SOCKET"], !path.isEmpty { return path }
        if let runtime = environment["XDG_RUNTIME_DIR"], runtime.hasPrefix("/") {
            return runtime + "/onthemap/onthemapd.sock"
        }
        return "/tmp/onthemap-\(uid)/onthemapd.sock"
    }
}
