import ArgumentParser
import OnTheMapServer

/// `--db PATH`, shared by every subcommand.
struct DatabaseOption: ParsableArguments {
    @Option(name: .customLong("db"), help: "SQLite database file (default: $XDG_DATA_HOME/onthemap-server/onthemap.sqlite).")
    var path: String?

    var resolvedPath: String {
        path ?? ServerConfiguration.defaultDatabasePath()
    }

    func open() throws -> AppDatabase {
        do {
            return try AppDatabase.open(path: resolvedPath)
        } catch {
            throw ValidationError("Cannot open the database at \(resolvedPath): \(error)")
        }
    }
}
