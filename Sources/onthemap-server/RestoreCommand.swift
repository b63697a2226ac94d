import ArgumentParser
import Foundation
import OnTheMapServer

/// `onthemap-server restore --from FILE`: a backup into an empty database.
struct RestoreCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "restore", abstract: "Restore a backup file into an empty database (SQLite or PostgreSQL).",
        discussion: """
            The backup is only read: it is copied into a private temporary folder and the copy is opened, so \
            the file (which may be read-only) stays byte for byte as it was. The destination is created if \
            there is none yet, and must hold no accounts and no pins.
            """)
    @OptionGroup var database: DatabaseOption
    @Option(help: "The backup file (from `onthemap-server backup`).") var from: String

    func run() async throws {
        let (snapshot, rule) = try await BackupFile.read(path: from)
        // The destination is what a restore makes: a new database is created by intent.
        let storage = try await database.open(pinsPerAccount: rule, ifNew: .create)
        do {
            try await storage.closing { try await storage.restore(snapshot) }
        } catch let error as StorageError { throw CommandError(error.description) }
        print("restored \(snapshot.counts) from \(from) (checksum \(try snapshot.checksum()))")
    }
}
