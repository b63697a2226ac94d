import Glibc

extension Terminal {
    /// Columns and rows of the terminal on `fd`, measured first, as a full-screen program must after a
    /// resize (`COLUMNS` and `LINES` may be what the shell saw at start); then as `width(of:)` and
    /// `rows(of:)` have them; nil off a terminal.
    static func measuredSize(of fd: Int32) -> (columns: Int, rows: Int)? {
        if let measured = measured(fd) { return measured }
        guard let columns = width(of: fd), let rows = rows(of: fd) else { return nil }
        return (columns, rows)
    }

    /// Whether the locale's character set is UTF-8 (LC_ALL, else LC_CTYPE, else LANG); braille needs it.
    static var localeIsUTF8: Bool {
        let locale = ["LC_ALL", "LC_CTYPE", "LANG"].lazy.compactMap { environment($0) }.first { !$0.isEmpty } ?? ""
        let lower = locale.lowercased()
        return lower.contains("utf-8") || lower.contains("utf8")
    }
}
