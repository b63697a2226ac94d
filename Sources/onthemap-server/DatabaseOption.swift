import ArgumentParser
import Foundation
import Logging
import OnTheMapServer

/// `--db PATH` / `--database URL` / `--pool-size N`, shared by every subcommand that opens the database.
struct DatabaseOption: ParsableArguments {
    @Option(name: .customLong("db"), help: "SQLite database file (default: $XDG_DATA_HOME/onthemap-server/onthemap.sqlite).")
    var path: String?

    @Option(
        name: .customLong("database"),
        help: ArgumentHelp(
            "postgres://USER@HOST:PORT/DB, or a SQLite file (default: $ONTHEMAP_DATABASE_URL, else --db).",
            discussion: "Give a PostgreSQL password in ONTHEMAP_DATABASE_URL, PGPASSWORD or the config file, not in argv."))
    var url: String?

    @Option(help: "Most PostgreSQL connections this process opens (default 10).")
    var poolSize = 10

    @Option(help: "Settings file: `key = value` lines named as the long options (e.g. `database = postgres://…`).")
    var config: String?

    /// The location as given, for messages: a URL without its password, or a file path.
    var resolvedTarget: DatabaseTarget {
        get throws {
            if let url, !url.isEmpty { return try DatabaseTarget(url) }
            return .sqlite(path ?? ServerConfiguration.defaultDatabasePath())
        }
    }

    /// Opens the database and brings its schema up to date; `pinsPerAccount` nil keeps the database's
    /// own rule (every command but `serve`).
    func open(
        pinsPerAccount: PinsPerAccount? = nil, waitForDatabase: Bool = false,
        logger: Logger = Logger(label: "onthemap-server")
    ) async throws -> any ServerStorage {
        let target = try resolvedTarget
        do {
            return try await target.open(
                pinsPerAccount: pinsPerAccount, poolSize: poolSize, waitForDatabase: waitForDatabase, logger: logger)
        } catch {
            throw CommandError("Cannot open the database at \(target): \(error)")
        }
    }
}
