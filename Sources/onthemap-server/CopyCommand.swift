import ArgumentParser
import Logging
import OnTheMapServer

/// `onthemap-server copy --from A --to B`: moves a group's data between SQLite and PostgreSQL.
struct CopyCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "copy",
        abstract: "Copy every account, session and pin from one database to another (SQLite or PostgreSQL).",
        discussion: """
            The destination must hold no accounts and no pins; it gets the source's pin rule. Counts and a \
            checksum of both sides are compared, and the copy fails if they differ. Stop the servers \
            writing to the source first.
            """)

    @Option(help: "Source: a SQLite file or postgres://USER@HOST:PORT/DB.")
    var from: String

    @Option(help: "Destination: a SQLite file or postgres://USER@HOST:PORT/DB.")
    var to: String

    func run() async throws {
        let logger = Logger(label: "onthemap-server")
        let source = try await DatabaseTarget(from).openForCommand(pinsPerAccount: nil, ifNew: .refuse, logger: logger)
        let (snapshot, rule) = try await source.closing { (try await source.snapshot(), source.pinsPerAccount) }
        // The destination must be empty: a new one is created by intent.
        let destination = try await DatabaseTarget(to).openForCommand(pinsPerAccount: rule, ifNew: .create, logger: logger)
        let result: StorageSnapshot
        do {
            result = try await destination.closing {
                try await destination.restore(snapshot)
                return try await destination.snapshot()
            }
        } catch let error as StorageError { throw CommandError(error.description) }
        let before = try snapshot.checksum()
        let after = try result.checksum()
        guard after == before else {
            throw CommandError(
                "The copy differs from the source: \(snapshot.counts) (checksum \(before)) became \(result.counts) (checksum \(after)).")
        }
        print("copied \(result.counts) from \(try DatabaseTarget(from)) to \(try DatabaseTarget(to)) (checksum \(after))")
    }
}
