import Glibc

/// Who listens at the other end of a connected Unix socket (SO_PEERCRED), and so how to stop it:
/// the advice for a daemon that hangs or holds a path is the command that works on this machine.
///
/// The kernel names the process that called `listen()`: the daemon started by hand, or the user's
/// systemd when it holds the socket for a socket-activated daemon (killing that pid would end the
/// user's session manager, so only a process named `onthemapd` is offered to `kill`).
public struct SocketPeer: Sendable, Equatable {
    public var pid: Int32
    public var uid: UInt32

    /// The peer of the connected socket `fd`, or nil when the kernel does not say.
    public init?(connected fd: Int32) {
        // `struct ucred` { pid_t pid; uid_t uid; gid_t gid; }: Glibc hides it behind _GNU_SOURCE.
        var credentials: (pid: Int32, uid: UInt32, gid: UInt32) = (0, 0, 0)
        var length = socklen_t(MemoryLayout.size(ofValue: credentials))
        let status = withUnsafeMutableBytes(of: &credentials) { getsockopt(fd, SOL_SOCKET, SO_PEERCRED, $0.baseAddress, &length) }
        guard status == 0 else { return nil }
        pid = credentials.pid
        uid = credentials.uid
    }

    /// The listener's program name (`/proc/PID/comm`), or nil when it cannot be read.
    public var programName: String? {
        guard pid > 0, let file = fopen("/proc/\(pid)/comm", "r") else { return nil }
        defer { fclose(file) }
        var buffer = [CChar](repeating: 0, count: 64)
        guard fgets(&buffer, Int32(buffer.count), file) != nil else { return nil }
        let name = String(decoding: buffer.prefix { $0 != 0 && $0 != 10 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return name.isEmpty ? nil : name
    }

    /// How to stop whatever listens, as a command to paste: `kill PID` for a daemon started by hand,
    /// systemd's own command when systemd holds the socket, nil when the listener is not known.
    public var stopCommand: String? {
        switch programName {
        case "onthemapd": "kill \(pid)"
        case "systemd": "systemctl --user stop onthemapd.socket onthemapd.service"
        default: nil
        }
    }

    /// How to restart it: `kill PID` then a new start for a daemon started by hand (the client's
    /// advice then says how it was started), systemd's restart when systemd holds it.
    public var restartAdvice: String {
        switch programName {
        // A stopped or stuck process does not act on SIGTERM: SIGKILL then.
        case "onthemapd": "end it with `kill \(pid)` (`kill -9 \(pid)` if it stays) and start it again (`onthemap status` then says how)"
        case "systemd": "restart it with `systemctl --user restart onthemapd.service`"
        default: "restart it"
        }
    }
}
