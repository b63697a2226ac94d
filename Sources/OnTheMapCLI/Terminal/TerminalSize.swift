import Glibc

extension Terminal {
    /// Columns and rows of the terminal on `fd`; `COLUMNS` and `LINES` win (unless the terminal is
    /// measured first, as a full-screen program must after a resize); nil off a terminal.
    static func size(of fd: Int32 = STDOUT_FILENO, environmentFirst: Bool = true) -> (columns: Int, rows: Int)? {
        var size = winsize()
        let measured = isatty(fd) == 1 && ioctl(fd, UInt(TIOCGWINSZ), &size) == 0 && size.ws_col > 0
        if !environmentFirst, measured { return (Int(size.ws_col), Int(size.ws_row)) }
        let columns = environment("COLUMNS").flatMap(Int.init).flatMap { $0 > 0 ? $0 : nil } ?? (measured ? Int(size.ws_col) : nil)
        let rows = environment("LINES").flatMap(Int.init).flatMap { $0 > 0 ? $0 : nil } ?? (measured ? Int(size.ws_row) : nil)
        guard let columns, let rows else { return nil }
        return (columns, rows)
    }

    /// Whether the locale's character set is UTF-8 (LC_ALL, else LC_CTYPE, else LANG); braille needs it.
    static var localeIsUTF8: Bool {
        let locale = ["LC_ALL", "LC_CTYPE", "LANG"].lazy.compactMap { environment($0) }.first { !$0.isEmpty } ?? ""
        let lower = locale.lowercased()
        return lower.contains("utf-8") || lower.contains("utf8")
    }
}
