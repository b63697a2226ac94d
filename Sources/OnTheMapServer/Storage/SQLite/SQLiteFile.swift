import Foundation

/// What is at a path where a SQLite database is expected, judged before SQLite opens it: SQLite
/// would silently turn a missing or 0-byte file into a new database.
enum SQLiteFile: Equatable {
    case missing
    /// A 0-byte file: what `touch` or an interrupted copy leaves.
    case empty
    /// Starts with SQLite's header.
    case database
    /// A file that is not a SQLite database, or a folder.
    case notADatabase(String)

    /// The first 16 bytes of every SQLite 3 database file.
    static let header = Array("SQLite format 3\0".utf8)

    static func inspect(_ path: String) -> SQLiteFile {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else { return .missing }
        if isDirectory.boolValue { return .notADatabase("\(path) is a folder, not a database file.") }
        // Unreadable (permissions): SQLite's own error says so when it opens the file.
        guard let handle = FileHandle(forReadingAtPath: path) else { return .database }
        defer { try? handle.close() }
        let start = (try? handle.read(upToCount: header.count)) ?? Data()
        if start.isEmpty { return .empty }
        guard Array(start) == header else {
            return .notADatabase("\(path) is not a SQLite database: give the path of an OnTheMap database file.")
        }
        return .database
    }

    /// Refuses what cannot be opened as the server's database; `ifNew` says whether a missing or
    /// empty file may become a new database.
    static func check(_ path: String, ifNew: NewDatabasePolicy) throws {
        switch inspect(path) {
        case .database: return
        case .notADatabase(let reason): throw StorageError.notADatabase(reason)
        case .missing where ifNew == .refuse:
            throw StorageError.notADatabase(
                "No database at \(path): check the path, or create one there with `onthemap-server migrate --create`.")
        case .empty where ifNew == .refuse:
            throw StorageError.notADatabase(
                "\(path) is an empty file (0 bytes), not a database: check the path, or make it a new database "
                    + "with `onthemap-server migrate --create`.")
        case .missing, .empty: return
        }
    }
}
