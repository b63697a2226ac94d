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
    /// second with `waitForDatabase`; a refusal that waiting will not change (no such database or
    /// role, a wrong password, no permission) fails at once either way, in PostgreSQL's words. A
    /// database without the schema gets it only when `ifNew` is `.create`.
    public static func connect(
        _ location: PostgresLocation, pinsPerAccount: PinsPerAccount?, poolSize: Int = 10,
        waitForDatabase: Bool = false, ifNew: NewDatabasePolicy = .create, operationTimeout: Duration = .seconds(10),
        logger: Logger
    ) async throws -> PostgresStorage {
        let database = PostgresDatabase(location, poolSize: poolSize, operationTimeout: operationTimeout, logger: logger)
        do {
            var waitLogged = false
            while true {
                do {
                    try await probe(location, logger: logger)
                    try await database.ping()
                    break
                } catch let error as StorageError where error.isUnavailable && waitForDatabase {
                    // Once, not once a second.
                    if !waitLogged { logger.warning("waiting for PostgreSQL at \(location): \(error)") }
                    waitLogged = true
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
                database: database, changes: try PostgresChangeWatch(location, database: database, logger: logger),
                pinsPerAccount: rule, mergedPins: merged, wasCreated: migrated.created,
                displayName: location.description)
        } catch {
            await database.close()
            throw error
        }
    }

    /// One connection of its own, before the pool's first: the pool retries a failed connection
    /// until the operation's deadline (10 s), logging each attempt, and then blames the deadline. So
    /// nothing answering at the address is `StorageError.unavailable` at once (retried with
    /// `--wait-for-database`), a refusal that needs someone to change the URL or the database is an
    /// error quoting PostgreSQL, and a database that accepts and never answers is bounded by the
    /// connection's timeout (5 s, the start-up handshake included).
    private static func probe(_ location: PostgresLocation, logger: Logger) async throws {
        do {
            let connection = try await PostgresConnection.connect(
                configuration: location.connectionConfiguration(.probe), id: 0, logger: logger)
            try? await connection.close()
        } catch let error as PSQLError {
            if PostgresErrors.needsOperator(error) {
                throw StorageError.refused("PostgreSQL refused the connection: \(PostgresErrors.summary(error))")
            }
            throw PostgresErrors.translate(error)
        }
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
        await database.close()
    }
}
