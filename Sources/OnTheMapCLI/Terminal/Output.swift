import OnTheMapModels

import Glibc

/// Unbuffered writes to stdout and stderr: status bars read each line as it is written, so nothing
/// may sit in a buffer.
///
/// A write to stdout that fails ends the program with a message and exit status 1 (a full disk, a
/// closed file): a truncated list must never look like a whole one. A reader that went away
/// (`| head`, EPIPE) ends it quietly, as `head` expects.
enum Output {
    static func out(_ text: String) {
        write(STDOUT_FILENO, Array(text.utf8))
    }

    static func line(_ text: String) {
        write(STDOUT_FILENO, Array((text + "\n").utf8))
    }

    /// `value` as one line of JSON (`--json`), encoded through `WireCoding`.
    static func json(_ value: some Encodable) throws {
        write(STDOUT_FILENO, try jsonBytes(value) + [UInt8(ascii: "\n")])
    }

    /// `value` as JSON for a terminal: exact, and its invisible characters escaped (`DisplayText`).
    static func jsonBytes(_ value: some Encodable) throws -> [UInt8] {
        DisplayText.escapedInJSON(try WireCoding.encode(value))
    }

    static func error(_ text: String) {
        write(STDERR_FILENO, Array((text + "\n").utf8))
    }

    private static func write(_ fd: Int32, _ bytes: [UInt8]) {
        guard !writeAll(bytes, to: fd) else { return }
        let code = errno
        // Nothing more can be said where the reader left, nor on a stderr that fails.
        if code == EPIPE || fd == STDERR_FILENO { exit(code == EPIPE ? 0 : 1) }
        error("onthemap: could not write the output (\(String(cString: strerror(code)))); it is incomplete")
        exit(1)
    }

    /// Writes all of `bytes` to `fd`; false (with `errno` set, EIO when nothing was written) when it
    /// could not.
    static func writeAll(_ bytes: [UInt8], to fd: Int32) -> Bool {
        var offset = 0
        while offset < bytes.count {
            let written = bytes[offset...].withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) }
            if written < 0, errno == EINTR { continue }
            guard written > 0 else {
                if written == 0 { errno = EIO }
                return false
            }
            offset += written
        }
        return true
    }
}

extension Output {
    /// Waits up to `milliseconds` (-1: no bound) for `socket` to have something to read, or only
    /// waits when `socket` is nil; whether it has. A reader of stdout that goes away meanwhile
    /// (`watch | head -1`) ends the program quietly, as a write to it would: at once, not at the next
    /// change, which may be hours away. GNU `tail -f` does the same.
    @discardableResult
    static func wait(forInputOn socket: Int32?, milliseconds: Int32) -> Bool {
        // No events asked of stdout: poll reports POLLERR (a pipe whose reader closed) and POLLHUP
        // whatever is asked; a terminal or a file reports neither.
        var fds = [pollfd(fd: STDOUT_FILENO, events: 0, revents: 0)]
        if let socket { fds.append(pollfd(fd: socket, events: Int16(POLLIN), revents: 0)) }
        while poll(&fds, nfds_t(fds.count), milliseconds) < 0, errno == EINTR {}
        if fds[0].revents & Int16(POLLERR | POLLHUP) != 0 { exit(0) }
        return fds.count > 1 && fds[1].revents != 0
    }
}
