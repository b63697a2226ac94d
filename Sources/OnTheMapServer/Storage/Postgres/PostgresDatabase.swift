import Foundation
import Logging
import PostgresNIO
// ConnectionPoolError: PostgresClient passes the pool's own errors on as they are.
import _ConnectionPoolModule

/// The pool with the three rules every query here follows: a deadline; failures of the connection
/// reported as `StorageError.unavailable` (a 503 and a retry, not a 500); and a failure that looks
/// like the database is gone reported to the pool, which decides whether it is out (`PostgresPool`).
struct PostgresDatabase: Sendable {
    let pool: PostgresPool
    let logger: Logger
    let operationTimeout: Duration
    /// How long a failed operation waits for the pool to say whether the database is out.
    static let verdictWait: Duration = .seconds(1)

    /// Runs `body` against the pool within the deadline.
    ///
    /// Once the database is found out, the operation ends at once with `StorageError.out` (it may
    /// be waiting for a connection the pool cannot open); a failure that means the database is gone
    /// waits briefly for the pool's verdict, so that the failures of an outage are refusals of a
    /// known outage (logged once, by the pool) rather than a line each.
    func run<T: Sendable>(_ body: @escaping @Sendable (PostgresClient, Logger) async throws -> T) async throws -> T {
        let client = try pool.client()
        let logger = self.logger
        let abandonment = Abandonment()
        let registration = pool.abandonWhenOut(abandonment)
        defer { pool.finished(registration) }
        do {
            return try await AbandoningDeadline.run(operationTimeout, abandonment: abandonment) { try await body(client, logger) }
        } catch {
            switch PostgresErrors.unwrap(error) {
            case let error as PSQLError:
                if PostgresErrors.meansUnreachable(error) {
                    let reason = PostgresErrors.summary(error)
                    if await pool.confirmsOut(reason, ranOn: client, waitingAtMost: Self.verdictWait) {
                        throw StorageError.out("PostgreSQL at \(pool.locationName) is unreachable: \(reason)")
                    }
                }
                throw PostgresErrors.translate(error)
            case is DeadlineExceeded:
                pool.suspect("no answer within \(operationTimeout)", ranOn: client)
                throw StorageError.unavailable("PostgreSQL did not answer within \(operationTimeout)")
            case let error as ConnectionPoolError:
                // Not PSQLErrors: the pool's verdict after a minute of failed connections, and its
                // answer to requests still waiting when it was replaced or shut down.
                if error == .connectionCreationCircuitBreakerTripped {
                    pool.markOut("no connection opened for a minute", ranOn: client)
                }
                throw StorageError.unavailable("PostgreSQL: no connection (\(error))")
            case let other:
                throw other
            }
        }
    }

    /// Runs `body` in a transaction within the deadline.
    func transaction<T: Sendable>(_ body: @escaping @Sendable (PostgresConnection, Logger) async throws -> T) async throws -> T {
        try await run { client, logger in
            try await client.withTransaction(logger: logger) { connection in try await body(connection, logger) }
        }
    }

    /// All rows of a query.
    func rows(_ query: PostgresQuery) async throws -> [PostgresRow] {
        try await run { client, logger in try await client.query(query, logger: logger).collect() }
    }

    /// Runs a statement, ignoring any rows.
    func execute(_ query: PostgresQuery) async throws {
        _ = try await rows(query)
    }

    func ping() async throws {
        try await execute("SELECT 1")
    }
}

/// Which PostgreSQL failures mean "the database is not there right now".
enum PostgresErrors {
    static func translate(_ error: PSQLError) -> any Error {
        if error.code == .server {
            let state = error.serverInfo?[.sqlState] ?? ""
            // 08: connection exception; 57P0x: shutting down / cannot connect now; 53: out of resources;
            // 40001 and 40P01: rolled back for a serialization failure or a deadlock, so the same
            // request may succeed if sent again: a 503 with Retry-After, not a 500.
            if state.hasPrefix("08") || state.hasPrefix("57P") || state.hasPrefix("53") || state == "40001"
                || state == "40P01"
            {
                return StorageError.unavailable("PostgreSQL: \(error.serverInfo?[.message] ?? state)")
            }
            return error
        }
        switch error.code {
        case .connectionError, .serverClosedConnection, .clientClosedConnection, .poolClosed, .uncleanShutdown,
            .sslUnsupported, .failedToAddSSLHandler:
            return StorageError.unavailable("PostgreSQL: \(summary(error))")
        default:
            return error
        }
    }

    /// The error inside a transaction's wrapper (PostgresNIO wraps whatever `withTransaction` met:
    /// the BEGIN's, the body's or the COMMIT's), so it is judged as it would be outside one.
    static func unwrap(_ error: any Error) -> any Error {
        guard let wrapped = error as? PostgresTransactionError else { return error }
        return wrapped.closureError ?? wrapped.beginError ?? wrapped.commitError ?? error
    }

    /// What went wrong, in a few words: the error's code, and what it wraps (`connection refused`)
    /// or the server's message. PSQLError's own description hides both.
    static func summary(_ error: PSQLError) -> String {
        let detail = error.serverInfo?[.message] ?? error.underlying.map { "\($0)" }
        return "\(error.code)" + (detail.map { ": \($0)" } ?? "")
    }

    /// Whether the failure says the database cannot be reached at all (down, restarting, the
    /// connection cut), as opposed to refusing one statement.
    static func meansUnreachable(_ error: PSQLError) -> Bool {
        switch error.code {
        case .connectionError, .serverClosedConnection, .uncleanShutdown: return true
        case .server:
            let state = error.serverInfo?[.sqlState] ?? ""
            return state.hasPrefix("08") || state.hasPrefix("57P")
        default: return false
        }
    }

    /// True for a unique-constraint violation (SQLSTATE 23505).
    static func isUniqueViolation(_ error: any Error) -> Bool {
        (unwrap(error) as? PSQLError)?.serverInfo?[.sqlState] == "23505"
    }
}
