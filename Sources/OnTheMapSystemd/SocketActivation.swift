import CSystemd

import Glibc

/// The listening socket systemd (or `systemd-socket-activate`) passed, if any.
public enum SocketActivation {
    /// Takes the first passed fd if it is a listening Unix stream socket.
    ///
    /// Must run first thing in `main`: `sd_listen_fds` calls `unsetenv`, which is unsafe once other
    /// threads exist.
    public static func takeListeningSocket() -> Int32? {
        let count = sd_listen_fds(1)
        guard count >= 1 else { return nil }
        let fd = SD_LISTEN_FDS_START
        guard sd_is_socket_unix(fd, Int32(SOCK_STREAM.rawValue), 1, nil, 0) > 0 else { return nil }
        return fd
    }
}
