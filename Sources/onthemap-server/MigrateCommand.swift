import ArgumentParser
import OnTheMapServer

/// `onthemap-server migrate`: brings a database's schema up to date without serving.
struct MigrateCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "migrate",
        abstract: "Create or update the database schema (serve does this too, at start).")

    @OptionGroup var database: DatabaseOption

    @Option(help: "Also set the pin rule: one (merges each account's pins into its newest) or many.")
    var pinsPerAccount: PinsPerAccount?

    @Flag(help: "Create the database if there is none yet (a missing or empty file, or a PostgreSQL database without the tables).")
    var create = false

    func run() async throws {
        let storage = try await database.open(pinsPerAccount: pinsPerAccount, ifNew: create ? .create : .refuse)
        let pins = try await storage.closing { try await storage.locationCount() }
        let (rule, merged, created) = (storage.pinsPerAccount, storage.mergedPins, storage.wasCreated)
        print("\(try database.resolvedTarget): \(created ? "created, " : "")schema up to date, \(pins) pins, pins per account: \(rule)")
        if merged > 0 {
            print("merged \(merged) duplicate pins into each account's newest")
        }
    }
}
