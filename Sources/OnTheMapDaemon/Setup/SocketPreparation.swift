import FoundationEssentials
import Glibc
import OnTheMapRPC
import SystemPackage

/// Gets the socket path ready for binding: a private directory, no stale socket, no live daemon, and
/// no file of another kind (which stays). Runs before any service starts, so a refused start has
/// nothing to stop.
enum SocketPreparation {
    /// Why the daemon will not bind at a path.
    struct Refusal: Error, CustomStringConvertible {
        var description: String

        /// `listener`: who answered there, for the command that stops it on this machine.
        static func alreadyServing(_ path: String, listener: SocketPeer?) -> Refusal {
            let stop = listener?.stopCommand.map { " (`\($0)`)" } ?? ""
            return Refusal(description: "another onthemapd is already serving \(path); stop it first\(stop), or use --socket to pick another path.")
        }
    }

    static func prepare(_ path: String) throws {
        let directory = FilePath(path).removingLastComponent().string
        if !FileManager.default.fileExists(atPath: directory) {
            try FileManager.default.createDirectory(
                atPath: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        }
        try checkPrivate(directory)
        guard let info = try? Stat(FilePath(path), followTargetSymlink: false) else { return }
        // A path mistyped or meant for something else (`--socket ~/.bashrc`): never replaced.
        guard info.type == .socket else {
            throw Refusal(description: "\(path) is not a socket but a file of another kind; onthemapd leaves it alone. Use --socket with another path.")
        }
        if let listener = answering(path) { throw Refusal.alreadyServing(path, listener: listener) }
        // Nobody listens: the socket is left over from a daemon that died. Replace it.
        unlink(path)
    }

    /// Refuses a directory another user owns or may write to: whoever can write there can replace the
    /// socket and read the next login's password.
    static func checkPrivate(_ directory: String, uid: uid_t = geteuid()) throws {
        let info: Stat
        do {
            info = try Stat(FilePath(directory), followTargetSymlink: false)
        } catch {
            throw Refusal(description: "cannot use the socket directory \(directory): \(error).")
        }
        guard info.type == .directory else {
            throw Refusal(description: "the socket directory \(directory) is not a directory (a symbolic link?); remove it or use --socket.")
        }
        guard info.userID.rawValue == uid else {
            throw Refusal(
                description:
                    "the socket directory \(directory) belongs to uid \(info.userID.rawValue), not to you (uid \(uid)): another user could replace the socket. Remove it, or use --socket with a directory of your own."
            )
        }
        guard info.permissions.isDisjoint(with: [.groupWrite, .otherWrite]) else {
            throw Refusal(
                description:
                    "the socket directory \(directory) can be written by others (mode \(String(info.permissions.rawValue, radix: 8))): they could replace the socket. Run `chmod 700 \(directory)`, or use --socket with a private directory."
            )
        }
    }

    /// Whether something accepts connections on the Unix socket at `path`: nil when nothing does,
    /// else who listens (nil inside when the kernel does not say).
    static func answering(_ path: String) -> SocketPeer?? {
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        guard let address = SocketPath.address(path), SocketPath.withSockaddr(address, { connect(fd, $0, $1) }) == 0 else { return nil }
        return .some(SocketPeer(connected: fd))
    }
}
