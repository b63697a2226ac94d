import FoundationEssentials
import OnTheMapModels
import OnTheMapSupport
import SystemPackage

import Glibc

/// The rows of the last table or map a person was shown, so `open 3` opens the third one's link.
///
/// One JSON object per line (`{"name":…,"link":…}`): a name holding a tab, a newline or a NUL is
/// escaped inside its string, so no data can move a link to another row or column (#32). Written
/// mode 0600 (others' names and links, as private as the daemon's cache) by a rename, so a reader
/// never sees half a table. Only a table a person could see is kept: on a terminal, or through a
/// pipe (a pager, `grep`: the numbers still show); output sent to a file or /dev/null is not
/// "the last table", so `open 1` never opens a row nobody saw.
enum LastTable {
    /// One row: whose link, the link as the daemon sent it, and why the daemon dropped it, if it did
    /// (absent in a table an older client wrote).
    struct Row: Equatable, Codable {
        var name: String
        var link: String
        var dropped: String?
    }

    /// What is left of the last table.
    enum Contents: Equatable {
        /// No table was shown yet.
        case none
        /// The file is there but cannot be read (written by an older client, or damaged).
        case unreadable
        case rows([Row])
    }

    static var path: FilePath { directory.appending("last-table.jsonl") }

    /// The TSV an older client wrote (readable by others, breakable by its data): removed when a
    /// new table is saved.
    static var formerPath: FilePath { directory.appending("last-table.tsv") }

    private static var directory: FilePath {
        XDGDirectory.path("XDG_CACHE_HOME", fallback: ".cache", environment: Terminal.environment).appending("onthemap")
    }

    /// Saves `rows` as the last table if they went to a person: `shownOn` is the descriptor they were
    /// written to (stdout for a table or map).
    static func save(_ pins: [StudentPin], shownOn fd: Int32 = STDOUT_FILENO) {
        guard shownToAPerson(fd) else { return }
        save(rows: pins.map { Row(name: $0.student.fullName, link: $0.student.mediaURL, dropped: $0.student.mediaURLDropped) })
    }

    /// A terminal, or a pipe (a pager, `grep`); not a file, /dev/null or another device.
    static func shownToAPerson(_ fd: Int32) -> Bool {
        if isatty(fd) == 1 { return true }
        var status = stat()
        return fstat(fd, &status) == 0 && status.st_mode & S_IFMT == S_IFIFO
    }

    /// Writes the rows, replacing the last table at once. A table that cannot be saved is not an
    /// error of the command that showed it: `open` then says there is none.
    static func save(rows: [Row]) {
        var text: [UInt8] = []
        for row in rows {
            guard let line = try? WireCoding.encode(row) else { return }
            text += line + [UInt8(ascii: "\n")]
        }
        try? FileManager.default.createDirectory(
            atPath: directory.string, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        guard (try? AtomicFile.write(text, to: path.string, mode: 0o600, exactMode: true)) != nil else { return }
        // A table an older client left: readable by others, and breakable by its data.
        unlink(formerPath.string)
    }

    /// What `open` completes to: the last table's row numbers, then its names (each once), those
    /// starting with `prefix` (any case). A name holding a control character is left out: a shell
    /// would print it, and `open` could not find it by what a person types.
    static func completions(_ prefix: String) -> [String] {
        guard case .rows(let rows) = load() else { return [] }
        var seen: Set<String> = []
        let names = rows.map(\.name).filter { !$0.isEmpty && !DisplayText.holdsControls($0) && seen.insert($0).inserted }
        let folded = prefix.lowercased()
        return (rows.indices.map { String($0 + 1) } + names).filter { $0.lowercased().hasPrefix(folded) }
    }

    /// The last table's rows.
    static func load() -> Contents {
        guard let data = FileManager.default.contents(atPath: path.string) else { return .none }
        var rows: [Row] = []
        for line in data.split(separator: UInt8(ascii: "\n")) {
            guard let row = try? WireCoding.decode(Row.self, from: line) else { return .unreadable }
            rows.append(row)
        }
        return .rows(rows)
    }
}
