import Foundation

/// Reading a backup without touching it: `restore` must leave its source as it found it, byte for
/// byte, even when the file is read-only or on read-only media.
///
/// Opening the backup itself would not: SQLite in WAL mode writes beside it (`-wal`, `-shm`), and the
/// migrations that bring an older backup's schema up to date write into it. So the file is copied
/// (with a `-wal` that holds data) into a private folder, and the copy is opened, migrated and read.
public enum BackupFile {
    /// Every row of the backup at `path`, and the pin rule it kept.
    public static func read(path: String) async throws -> (snapshot: StorageSnapshot, pinsPerAccount: PinsPerAccount) {
        switch SQLiteFile.inspect(path) {
        case .missing: throw StorageError.notADatabase("No backup file at \(path).")
        case .empty: throw StorageError.notADatabase("\(path) is an empty file (0 bytes), not a backup.")
        case .notADatabase(let reason): throw StorageError.notADatabase(reason)
        case .database: break
        }
        let folder = try privateFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let copy = folder + "/backup.sqlite"
        do {
            try copyFile(path, to: copy)
            let wal = path + "-wal"
            if let size = try? FileManager.default.attributesOfItem(atPath: wal)[.size] as? Int, size > 0 {
                try copyFile(wal, to: copy + "-wal")
            }
        } catch {
            throw StorageError.notADatabase("Cannot read the backup \(path): \(error.localizedDescription)")
        }
        let storage: SQLiteStorage
        do {
            storage = try SQLiteStorage.open(path: copy, pinsPerAccount: nil, ifNew: .refuse)
        } catch StorageError.notADatabase(let message) {
            // Named as the operator gave it, not as the private copy.
            throw StorageError.notADatabase(message.replacingOccurrences(of: copy, with: path))
        }
        return (try await storage.closing { try await storage.snapshot() }, storage.pinsPerAccount)
    }

    /// A new folder only this user can enter: the copy holds password hashes and sessions.
    private static func privateFolder() throws -> String {
        var template = Array((NSTemporaryDirectory() + "/onthemap-restore-XXXXXX").utf8CString)
        guard let made = mkdtemp(&template) else {
            throw StorageError.unavailable("cannot make a temporary folder: \(String(cString: strerror(errno)))")
        }
        return String(cString: made)
    }

    /// Copies the bytes into a new owner-only file (the source's own mode may be read-only).
    private static func copyFile(_ source: String, to destination: String) throws {
        let data = try Data(contentsOf: URL(fileURLWithPath: source), options: .mappedIfSafe)
        guard FileManager.default.createFile(atPath: destination, contents: data, attributes: [.posixPermissions: 0o600])
        else { throw CocoaError(.fileWriteUnknown) }
    }
}
