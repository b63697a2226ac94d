import Foundation
import Logging
import NIOConcurrencyHelpers
import PostgresNIO

/// PostgresNIO's pooled client, with the rules every query here follows: a deadline, failures of
/// the connection reported as `StorageError.unavailable` (a 503 and a retry, not a 500), and nothing
/// sent to the database while it is known to be out.
///
/// The database is found out when a connection of the replica's own is refused: the change watch's
/// (`PostgresChangeWatch`), opened again the moment it is lost, or one opened to check when an
/// operation fails as if the database were gone (a stopped PostgreSQL refuses it within
/// milliseconds). The watch also says when it is back. While out, the pool is closed: everything
/// waiting on it is answered at once (the pool would hold a request until its deadline, and after
/// a minute fail every one), and no back-off is left to sit out when the database returns (the pool's
/// grows towards a minute): the first operation after the outage opens a fresh pool.
final class PostgresDatabase: Sendable {
    private struct State {
        /// The pool and the task running it; nil before the first operation, during an outage and
        /// after `close()`.
        var client: (PostgresClient, Task<Void, Never>)?
        /// When the database was found out; nil while it answers.
        var outSince: ContinuousClock.Instant?
        /// Whether a change watch reports outages, and their end (only `serve` starts one).
        var watched = false
        var closed = false
    }

    let location: PostgresLocation
    let logger: Logger
    let operationTimeout: Duration
    private let poolSize: Int
    private let state = NIOLockedValueBox(State())

    /// How long a failed operation's check of whether the database is out may take, so that the
    /// refusals of an outage are refusals of a known outage (logged once) rather than a line each.
    static let verdictWait: Duration = .seconds(2)

    init(_ location: PostgresLocation, poolSize: Int, operationTimeout: Duration, logger: Logger) {
        self.location = location
        self.poolSize = poolSize
        self.operationTimeout = operationTimeout
        self.logger = logger
    }

    /// The pool; throws `StorageError.out` while the database is out.
    private func client() throws -> PostgresClient {
        try state.withLockedValue { state in
            if let since = state.outSince { throw outError(since) }
            if state.closed { throw StorageError.unavailable("the server is shutting down") }
            if let (client, _) = state.client { return client }
            // The pool's own lines (a line per failed connection attempt) only at debug: an outage
            // is said once, by `markOut`.
            var poolLogger = logger
            if poolLogger.logLevel > .debug { poolLogger.logLevel = .warning }
            let client = PostgresClient(
                configuration: location.poolConfiguration(maximumConnections: poolSize), backgroundLogger: poolLogger)
            // `Task.immediate` runs `run()` here, up to its first suspension, so the pool counts as
            // running before anyone leases from it. A plain `Task` raced the first query, and PostgresNIO
            // then warned "`run()` hasn't been called yet" into the output of admin commands. Under the
            // lock, so no caller gets the client before that: `run()` sets its flag and starts its pool
            // without calling back into this class.
            state.client = (client, Task.immediate { await client.run() })
            return client
        }
    }

    /// Runs `body` against the pool within the deadline.
    func run<T: Sendable>(_ body: @escaping @Sendable (PostgresClient, Logger) async throws -> T) async throws -> T {
        let client = try client()
        let logger = self.logger
        do {
            return try await AbandoningDeadline.run(operationTimeout) { try await body(client, logger) }
        } catch {
            let error = PostgresErrors.unwrap(error)
            if let since = state.withLockedValue({ $0.outSince }) { throw outError(since) }
            switch error {
            case let error as PSQLError:
                if PostgresErrors.meansUnreachable(error), await confirmsOut() {
                    throw outError(.now)
                }
                throw PostgresErrors.translate(error)
            case is DeadlineExceeded:
                throw StorageError.unavailable("PostgreSQL did not answer within \(operationTimeout)")
            case let error where PostgresErrors.isPoolVerdict(error):
                throw StorageError.unavailable("PostgreSQL: no connection (\(error))")
            default:
                throw error
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

    /// A change watch reports outages from now on.
    func watchOutages() {
        state.withLockedValue { $0.watched = true }
    }

    /// The change watch cannot connect (`reason`, PostgreSQL's own words where it gave any): refuse
    /// operations until it can, and close the pool, which answers everything waiting on it at once.
    func markOut(_ reason: String) {
        let runner: Task<Void, Never>?? = state.withLockedValue { state in
            guard !state.closed, state.outSince == nil else { return nil }
            state.outSince = .now
            defer { state.client = nil }
            return .some(state.client?.1)
        }
        guard let runner else { return }
        logger.error("PostgreSQL at \(location) is unreachable (\(reason)); refusing requests until it answers again")
        runner?.cancel()
    }

    /// The change watch connected again: serve again, on a fresh pool.
    func markBack() {
        let since: ContinuousClock.Instant? = state.withLockedValue { state in
            defer { state.outSince = nil }
            return state.outSince
        }
        guard let since else { return }
        logger.notice(
            "PostgreSQL at \(location) answers again after \(Int(since.duration(to: .now).components.seconds)) s; serving")
    }

    /// Closes the pool; waits for its connections to close.
    func close() async {
        let runner = state.withLockedValue { state in
            state.closed = true
            defer { state.client = nil }
            return state.client?.1
        }
        runner?.cancel()
        await runner?.value
    }

    private func outError(_ since: ContinuousClock.Instant) -> StorageError {
        StorageError.out(
            "PostgreSQL at \(location) has not answered for \(Int(since.duration(to: .now).components.seconds)) s")
    }

    /// Whether the database is out, an operation having failed as if it were: a connection of this
    /// check's own decides (refused: out, and marked so), within `verdictWait`. Only where a watch
    /// will say when it is back (`serve`); a command just reports its failure.
    private func confirmsOut() async -> Bool {
        let (known, watched) = state.withLockedValue { ($0.outSince != nil, $0.watched) }
        if known { return true }
        guard watched else { return false }
        let (location, logger) = (self.location, self.logger)
        let refusal = try? await AbandoningDeadline.run(Self.verdictWait) { () -> String? in
            do {
                let connection = try await PostgresConnection.connect(
                    configuration: location.connectionConfiguration(.probe), id: 0, logger: logger)
                try? await connection.close()
                return nil
            } catch let error as PSQLError where PostgresErrors.meansUnreachable(error) || PostgresErrors.needsOperator(error) {
                return PostgresErrors.summary(error)
            }
        }
        if let refusal = refusal ?? nil { markOut(refusal) }
        return state.withLockedValue { $0.outSince != nil }
    }
}
