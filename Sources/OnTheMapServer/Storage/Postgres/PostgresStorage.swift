import Foundation
import Logging
import OnTheMapModels
import PostgresNIO

/// `ServerStorage` on PostgreSQL (PostgresNIO's pooled client): any number of replicas over one database.
public final class PostgresStorage: ServerStorage {
    let database: PostgresDatabase
    public let pinsPerAccount: PinsPerAccount
    public let displayName: String
    /// How many duplicate pins the schema's rule merged away on opening.
    public let mergedPins: Int
    /// True when opening created the schema.
    public let wasCreated: Bool
    /// LISTENs for pin changes once `serve` asks (`locationChangeWatch()`).
    let changes: PostgresChangeWatch

    private init(
        database: PostgresDatabase, changes: PostgresChangeWatch,
        pinsPerAccount: PinsPerAccount, mergedPins: Int, wasCreated: Bool, displayName: String
    ) {
        self.wasCreated = wasCreated
        self.database = database
        self.changes = changes
        self.pinsPerAccount = pinsPerAccount
        self.mergedPins = mergedPins
        self.displayName = displayName
    }

    /// Connects, applies the migrations (and the pin rule, when given) and returns the storage.
    /// An unreachable server fails at once with `StorageError.unavailable`, or is retried every
    /// second with `waitForDatabase`. A database without the schema gets it only when `ifNew` is
    /// `.create`.
    public static func connect(
        _ location: PostgresLocation, pinsPerAccount: PinsPerAccount?, poolSize: Int = 10,
        waitForDatabase: Bool = false, ifNew: NewDatabasePolicy = .create, operationTimeout: Duration = .seconds(10),
        logger: Logger
    ) async throws -> PostgresStorage {
        let pool = PostgresPool(location, poolSize: poolSize, retireAfter: operationTimeout, logger: logger)
        let database = PostgresDatabase(pool: pool, logger: logger, operationTimeout: operationTimeout)
        do {
            while true {
                do {
                    try await probe(location, database)
                    try await database.ping()
                    break
                } catch let error as StorageError where error.isUnavailable && waitForDatabase {
                    logger.warning("waiting for PostgreSQL at \(location): \(error)")
                    try await Task.sleep(for: .seconds(1))
                }
            }
            let schema = PostgresSchema(database: database)
            let migrated = try await schema.migrate(ifNew: ifNew, location: location)
            var merged = migrated.merged
            let rule: PinsPerAccount
            if let pinsPerAccount {
                merged += try await schema.apply(pinsPerAccount)
                rule = pinsPerAccount
            } else {
                rule = try await schema.currentPinsPerAccount()
            }
            return PostgresStorage(
                database: database, changes: try PostgresChangeWatch(location, pool: pool, logger: logger),
                pinsPerAccount: rule, mergedPins: merged, wasCreated: migrated.created,
                displayName: location.description)
        } catch {
            await pool.close()
            throw error
        }
    }

    /// Fails at once when nothing answers at the database's address: the pool retries a refused
    /// connection until the operation's deadline, so without this a server started while
    /// PostgreSQL is down would say so only after that (10 s), and its wait would pace by it. A
    /// database that accepts and never answers is bounded by the connection's 5 s timeout (it covers
    /// the start-up handshake), the deadline behind it. Any other failure (a wrong password…) is left
    /// for the pool's first query to report.
    private static func probe(_ location: PostgresLocation, _ database: PostgresDatabase) async throws {
        do {
            try await database.run { _, logger in
                let connection = try await PostgresConnection.connect(
                    configuration: location.connectionConfiguration(.probe), id: 0, logger: logger)
                try? await connection.close()
            }
        } catch let error as StorageError where error.isUnavailable {
            throw error
        } catch {}
    }

    public func ping() async throws {
        try await database.ping()
    }

    public func locationChangeWatch() -> any LocationChangeWatch {
        changes.start()
        return changes
    }

    public func close() async {
        await changes.stop()
        await database.pool.close()
    }
}
