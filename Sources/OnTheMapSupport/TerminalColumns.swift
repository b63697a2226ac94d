import Glibc

/// The width a terminal's tables and sentences are fitted to (`TextTable`), one rule for the client
/// and the server's admin tables: `COLUMNS` if set, else the terminal's own.
public enum TerminalColumns {
    /// Columns of the terminal on `fd`: `COLUMNS` if set, else the terminal's (80 where it cannot be
    /// measured); nil off a terminal.
    public static func of(_ fd: Int32) -> Int? {
        if let value = getenv("COLUMNS"), let columns = Int(String(cString: value)), columns > 0 { return columns }
        guard isatty(fd) == 1 else { return nil }
        return measured(fd)?.columns ?? 80
    }

    /// The terminal's own size, as the kernel has it; nil off a terminal.
    public static func measured(_ fd: Int32) -> (columns: Int, rows: Int)? {
        var size = winsize()
        guard isatty(fd) == 1, ioctl(fd, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 else { return nil }
        return (Int(size.ws_col), Int(size.ws_row))
    }
}
