#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Where the daemon's socket is: the one function the daemon and every client use.
public enum SocketPath {
    /// `--socket PATH`, else `$ONTHEMAP_SOCKET`, else `$XDG_RUNTIME_DIR/onthemap/onthemapd.sock`,
    /// else `/tmp/onthemap-$UID/onthemapd.sock`. `environment` looks a variable up: a function rather
    /// than a dictionary, so the client's start-up builds no hash table for two lookups.
    public static func resolve(flag: String?, environment: (String) -> String?, uid: @autoclosure () -> UInt32 = getuid()) -> String {
        if let flag, !flag.isEmpty { return flag }
        if let path = environment("ONTHEMAP_SOCKET"), !path.isEmpty { return path }
        if let runtime = environment("XDG_RUNTIME_DIR"), runtime.hasPrefix("/") {
            return runtime + "/onthemap/onthemapd.sock"
        }
        return "/tmp/onthemap-\(uid())/onthemapd.sock"
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
