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
        do {
            let backup = try await DatabaseTarget.sqlite(to).open(
                pinsPerAccount: rule, ifNew: .create, logger: Logger(label: "onthemap-server"))
            try await backup.closing { try await backup.restore(snapshot) }
        } catch {
            // A backup that failed (a full disk) is no backup: nothing is left to be taken for one.
            for file in [to, to + "-wal", to + "-shm", to + "-journal"] { try? FileManager.default.removeItem(atPath: file) }
            throw error
        }
        print("backed up \(snapshot.counts) to \(to) (checksum \(try snapshot.checksum()))")
    }
}
