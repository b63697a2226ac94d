import Foundation
import OnTheMapRPC

/// Gets the socket path ready for binding: a 0700 directory, no stale socket file, and no live daemon.
enum SocketPreparation {
    struct AlreadyServing: Error, CustomStringConvertible {
        var path: String
        var description: String {
            "another onthemapd is already serving \(path); stop it first (systemctl --user stop onthemapd), or use --socket to pick another path."
        }
    }

    static func prepare(_ path: String) throws {
        let directory = (path as NSString).deletingLastPathComponent
        if !FileManager.default.fileExists(atPath: directory) {
            try FileManager.default.createDirectory(
                atPath: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        }
        guard FileManager.default.fileExists(atPath: path) else { return }
        if isAnswering(path) { throw AlreadyServing(path: path) }
        // Nobody listens: the file is left over from a daemon that died. Replace it.
        unlink(path)
    }

    /// Whether something accepts connections on the Unix socket at `path`.
    static func isAnswering(_ path: String) -> Bool {
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        guard let address = SocketPath.address(path) else { return false }
        return SocketPath.withSockaddr(address) { connect(fd, $0, $1) } == 0
    }
}
