import ArgumentParser
import Foundation
import Logging
import OnTheMapServer

/// `onthemap-server backup --to FILE`: a consistent copy, taken while serving, into a new SQLite file.
struct BackupCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "backup",
        abstract: "Copy the database into a new SQLite file, consistently, while the server runs.",
        discussion: "The copy is read in one transaction (a snapshot), so writes made meanwhile are in it whole or not at all.")
    @OptionGroup var database: DatabaseOption
    @Option(help: "The backup file to create (must not exist).") var to: String

    func run() async throws {
        guard !FileManager.default.fileExists(atPath: to) else { throw CommandError("\(to) exists; give a new file.") }
        let (snapshot, rule) = try await database.with { (try await $0.snapshot(), $0.pinsPerAccount) }
        let backup = try await DatabaseTarget.sqlite(to).open(pinsPerAccount: rule, logger: Logger(label: "onthemap-server"))
        let result = await Result { try await backup.restore(snapshot) }
        await backup.close()
        try result.get()
        print("backed up \(snapshot.counts) to \(to) (checksum \(snapshot.checksum))")
    }
}

/// `onthemap-server restore --from FILE`: a backup into an empty database.
struct RestoreCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "restore", abstract: "Restore a backup file into an empty database (SQLite or PostgreSQL).")
    @OptionGroup var database: DatabaseOption
    @Option(help: "The backup file (from `onthemap-server backup`).") var from: String

    func run() async throws {
        guard FileManager.default.fileExists(atPath: from) else { throw CommandError("No backup file at \(from).") }
        let source = try await DatabaseTarget.sqlite(from).open(pinsPerAccount: nil, logger: Logger(label: "onthemap-server"))
        let read = await Result { (try await source.snapshot(), source.pinsPerAccount) }
        await source.close()
        let (snapshot, rule) = try read.get()
        let storage = try await database.open(pinsPerAccount: rule)
        let result = await Result { try await storage.restore(snapshot) }
        await storage.close()
        do { try result.get() } catch let error as StorageError { throw CommandError(error.description) }
        print("restored \(snapshot.counts) from \(from) (checksum \(snapshot.checksum))")
    }
}
