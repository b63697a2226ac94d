import Glibc

/// Where the daemon's socket is: the one place the daemon and every client decide it.
public enum SocketPath {
    /// The paths to try, in order. An explicit choice (`--socket PATH`, else `$ONTHEMAP_SOCKET`) is the
    /// only candidate. Otherwise: `$XDG_RUNTIME_DIR/onthemap/onthemapd.sock` when it is set, then
    /// `/run/user/$UID/onthemap/onthemapd.sock` (systemd's runtime directory, which cron, `env -i` and
    /// ssh commands do not announce), then `/tmp/onthemap-$UID/onthemapd.sock`, the daemon's last resort.
    /// `environment` looks a variable up: a function rather than a dictionary, so the client's start-up
    /// builds no hash table for two lookups.
    public static func candidates(
        flag: String?, environment: (String) -> String?, uid: @autoclosure () -> UInt32 = getuid()
    ) -> [String] {
        if let flag, !flag.isEmpty { return [flag] }
        if let path = environment("ONTHEMAP_SOCKET"), !path.isEmpty { return [path] }
        let uid = uid()
        var paths: [String] = []
        if let runtime = environment("XDG_RUNTIME_DIR"), runtime.hasPrefix("/") {
            paths.append(runtime + "/onthemap/onthemapd.sock")
        }
        let systemdRuntime = "/run/user/\(uid)/onthemap/onthemapd.sock"
        if paths.first != systemdRuntime { paths.append(systemdRuntime) }
        paths.append(temporaryPath(uid: uid))
        return paths
    }

    /// Where the daemon binds by default: an explicit choice, else `$XDG_RUNTIME_DIR`'s path, else
    /// `/run/user/$UID`'s when that directory exists and belongs to `uid`, else the `/tmp` fallback
    /// (whose directory the daemon creates and checks before binding).
    public static func resolve(
        flag: String?, environment: (String) -> String?, uid: @autoclosure () -> UInt32 = getuid(),
        ownsDirectory: (String, UInt32) -> Bool = SocketPath.isOwnedDirectory
    ) -> String {
        let uid = uid()
        let paths = candidates(flag: flag, environment: environment, uid: uid)
        if paths.count == 1 || environment("XDG_RUNTIME_DIR")?.hasPrefix("/") == true { return paths[0] }
        return ownsDirectory("/run/user/\(uid)", uid) ? paths[0] : paths[paths.count - 1]
    }

    /// `/tmp/onthemap-$UID/onthemapd.sock`.
    static func temporaryPath(uid: UInt32) -> String { "/tmp/onthemap-\(uid)/onthemapd.sock" }

    /// Whether `path` is a directory (not a symbolic link) owned by `uid`.
    public static func isOwnedDirectory(_ path: String, uid: UInt32) -> Bool {
        var info = stat()
        guard lstat(path, &info) == 0 else { return false }
        return (info.st_mode & S_IFMT) == S_IFDIR && info.st_uid == uid
    }
}

extension SocketPath {
    /// A `sockaddr_un` for `path`, or nil when the path does not fit (108 bytes on Linux).
    public static func address(_ path: String) -> sockaddr_un? {
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        guard bytes.count < MemoryLayout.size(ofValue: address.sun_path) else { return nil }
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            raw.copyBytes(from: bytes)
            raw[bytes.count] = 0
        }
        return address
    }

    /// Calls `body` with `address` as the `sockaddr` pointer and length that `connect`/`bind` take.
    public static func withSockaddr<T>(_ address: sockaddr_un, _ body: (UnsafePointer<sockaddr>, socklen_t) -> T) -> T {
        withUnsafePointer(to: address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { body($0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
    }
}
