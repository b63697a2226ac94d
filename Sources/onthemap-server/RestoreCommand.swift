import ArgumentParser
import Foundation
import Logging
import OnTheMapServer

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
