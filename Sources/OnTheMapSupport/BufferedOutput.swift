// `stdout` is a C global, which Swift 6 will not read without it.
@preconcurrency import Glibc

/// What a program writes through stdio's buffer (`print`, ArgumentParser's help, usage and version)
/// is checked at exit, as coreutils' `close_stdout` does: a write that failed (a full disk,
/// /dev/full, a closed file) prints one line and makes the exit status 1, so a truncated list never
/// looks like a whole one; a reader that went away (`| head`) leaves the exit status as it was.
public enum BufferedOutput {
    /// The program the message names; set once, before the check is armed.
    nonisolated(unsafe) private static var program = ""

    /// Arms the check, once, early in `main`.
    public static func checkAtExit(program: String) {
        Self.program = program
        atexit {
            let flushed = fflush(stdout) == 0
            let code = errno
            // A buffer flushed earlier may have failed too: stdio remembers it (ferror), not why.
            guard !flushed || ferror(stdout) != 0 else { return }
            if (!flushed && code == EPIPE) || BufferedOutput.readerLeft() { return }
            let why = flushed ? "" : " (" + String(cString: strerror(code)) + ")"
            let line = Array("\(BufferedOutput.program): could not write the output\(why); it is incomplete\n".utf8)
            _ = line.withUnsafeBytes { write(STDERR_FILENO, $0.baseAddress, $0.count) }
            _exit(1)
        }
    }

    /// Whether stdout is a pipe whose reader closed it (poll reports POLLERR for one; a file, a
    /// terminal or /dev/full, never).
    private static func readerLeft() -> Bool {
        var descriptor = pollfd(fd: STDOUT_FILENO, events: 0, revents: 0)
        return poll(&descriptor, 1, 0) > 0 && descriptor.revents & Int16(POLLERR) != 0
    }
}
