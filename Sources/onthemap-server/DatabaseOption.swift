import ArgumentParser
import Foundation
import Logging
import OnTheMapServer

/// `--db PATH` / `--database URL` / `--config FILE`, shared by every subcommand that opens the database.
struct DatabaseOption: ParsableArguments {
    @Option(
        name: .customLong("db"),
        help: ArgumentHelp("SQLite database file.", discussion: "Default: $XDG_DATA_HOME/onthemap-server/onthemap.sqlite."))
    var path: String?

    @Option(
        name: .customLong("database"),
        help: ArgumentHelp(
            "postgres://USER@HOST:PORT/DB, or a SQLite file (default: $ONTHEMAP_DATABASE_URL, else --db).",
            discussion: "Give a PostgreSQL password in ONTHEMAP_DATABASE_URL, PGPASSWORD or the config file, not in argv."))
    var url: String?

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
    /// own rule (every command but `serve`). A database that does not exist yet is refused unless
    /// `ifNew` is `.create`: only commands that create one by intent say so.
    func open(
        pinsPerAccount: PinsPerAccount? = nil, ifNew: NewDatabasePolicy = .refuse, poolSize: Int = 2,
        waitForDatabase: Bool = false, logger: Logger = Logger(label: "onthemap-server")
    ) async throws -> any ServerStorage {
        try await resolvedTarget.openForCommand(
            pinsPerAccount: pinsPerAccount, ifNew: ifNew, poolSize: poolSize, waitForDatabase: waitForDatabase,
            logger: logger)
    }
}

extension DatabaseTarget {
    /// Opens the database as every command does: no database there is the storage's own sentence,
    /// any other failure names the place and what the database said.
    func openForCommand(
        pinsPerAccount: PinsPerAccount?, ifNew: NewDatabasePolicy, poolSize: Int = 2, waitForDatabase: Bool = false,
        logger: Logger
    ) async throws -> any ServerStorage {
        do {
            return try await open(
                pinsPerAccount: pinsPerAccount, poolSize: poolSize, waitForDatabase: waitForDatabase, ifNew: ifNew,
                logger: logger)
        } catch StorageError.notADatabase(let message) {
            throw CommandError(message)
        } catch {
            throw CommandError("Cannot open the database at \(self): \(describeStorageFailure(error))")
        }
    }
}
