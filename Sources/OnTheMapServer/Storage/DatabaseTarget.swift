import Foundation
import Logging

/// Where the data lives: a SQLite file or a PostgreSQL database, parsed from `--db` / `--database`.
public enum DatabaseTarget: Sendable, CustomStringConvertible, Equatable {
    case sqlite(String)
    case postgres(PostgresLocation)

    /// `postgres://…` or `postgresql://…` is PostgreSQL; `sqlite:PATH` or anything else is a SQLite path.
    public init(_ text: String) throws {
        if text.hasPrefix("postgres://") || text.hasPrefix("postgresql://") {
            self = .postgres(try PostgresLocation(url: text))
        } else if text.hasPrefix("sqlite:") {
            self = .sqlite(String(text.dropFirst("sqlite:".count)))
        } else if text.contains("://") {
            throw StorageError.invalidURL("Unknown database URL scheme in \(text.prefix(while: { $0 != ":" })): use postgres:// or a SQLite file path.")
        } else {
            self = .sqlite(text)
        }
    }

    /// Without the password.
    public var description: String {
        switch self {
        case .sqlite(let path): path
        case .postgres(let location): location.description
        }
    }

    /// Opens the storage; `waitForDatabase` retries an unreachable PostgreSQL every second instead of
    /// failing; `ifNew` says whether a database that does not exist yet is created or refused.
    public func open(
        pinsPerAccount: PinsPerAccount?, poolSize: Int = 10, waitForDatabase: Bool = false,
        ifNew: NewDatabasePolicy = .create, logger: Logger
    ) async throws -> any ServerStorage {
        switch self {
        case .sqlite(let path):
            return try SQLiteStorage.open(path: path, pinsPerAccount: pinsPerAccount, ifNew: ifNew)
        case .postgres(let location):
            return try await PostgresStorage.connect(
                location, pinsPerAccount: pinsPerAccount, poolSize: poolSize, waitForDatabase: waitForDatabase,
                ifNew: ifNew, logger: logger)
        }
    }
}
