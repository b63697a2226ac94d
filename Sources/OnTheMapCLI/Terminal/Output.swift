#if canImport(Glibc)
import Glibc
#endif

/// Unbuffered writes to stdout and stderr: status bars read each line as it is written, so nothing
/// may sit in a buffer.
enum Output {
    static func out(_ text: String) {
        write(STDOUT_FILENO, text)
    }

    static func line(_ text: String) {
        write(STDOUT_FILENO, text + "\n")
    }

    static func error(_ text: String) {
        write(STDERR_FILENO, text + "\n")
    }

    private static func write(_ fd: Int32, _ text: String) {
        var bytes = Array(text.utf8)
        var offset = 0
        while offset < bytes.count {
            let written = bytes[offset...].withUnsafeMutableBytes { Glibc.write(fd, $0.baseAddress, $0.count) }
            if written <= 0 {
                if written < 0, errno == EINTR { continue }
                return  // the reader went away (e.g. `| head`): nothing more to say
            }
            offset += written
        }
        _ = bytes.count
    }
}
