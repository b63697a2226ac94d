import Logging
import NIOConcurrencyHelpers
import PostgresNIO

/// The connection pool, and what this replica knows of PostgreSQL's reachability.
///
/// PostgresNIO's pool, left to itself through an outage, serves it badly: a request waits for a
/// connection until the operation's deadline (10 s) however certainly the database is gone; the
/// pool retries with a back-off that grows to a minute, so a database that came back is used only
/// when the back-off runs out; and after 60 s of failures it fails every request with an error of
/// its own. So once anything finds the database unreachable, it is *out*: requests are refused at
/// once (a 503 that says so), and a probe opens a connection of its own every second. When one
/// answers, a fresh pool (no back-off to sit out) replaces the old one and requests go through.
final class PostgresPool: Sendable {
    /// How often the probe tries while the database is out, and how long one try may take.
    static let probeInterval: Duration = .seconds(1)
    static let probeTimeout: Duration = .seconds(5)

    private struct State {
        var client: PostgresClient
        var runner: Task<Void, Never>
        /// When the database was found unreachable; nil while it answers.
        var outSince: ContinuousClock.Instant?
        var probe: Task<Void, Never>?
        var closed = false
    }

    private let state: NIOLockedValueBox<State>
    private let location: PostgresLocation
    private let poolSize: Int
    private let logger: Logger

    init(_ location: PostgresLocation, poolSize: Int, logger: Logger) {
        self.location = location
        self.poolSize = poolSize
        self.logger = logger
        let (client, runner) = Self.start(location, poolSize: poolSize, logger: logger)
        state = NIOLockedValueBox(State(client: client, runner: runner))
    }

    /// The pool to run an operation on; throws `StorageError.out` while the database is out.
    func client() throws -> PostgresClient {
        try state.withLockedValue { state in
            guard let since = state.outSince else { return state.client }
            throw StorageError.out(
                "PostgreSQL at \(location) has not answered for \(Int(since.duration(to: .now).components.seconds)) s")
        }
    }

    /// Something found the database unreachable: refuse requests until the probe reaches it. An
    /// operation says which pool it ran on: one that began on a pool replaced since (it waited
    /// through the outage) says nothing about the new one.
    func markOut(_ reason: String, ranOn client: PostgresClient? = nil) {
        let started: Bool = state.withLockedValue { state in
            guard !state.closed, state.outSince == nil, client.map({ $0 === state.client }) ?? true else { return false }
            state.outSince = .now
            state.probe = Task { await self.probeUntilBack() }
            return true
        }
        if started {
            logger.error("PostgreSQL at \(location) is unreachable (\(reason)); answering 503 until it answers again")
        }
    }

    /// Stops the probe and the pool; waits for the pool's connections to close.
    func close() async {
        let (runner, probe) = state.withLockedValue { state in
            state.closed = true
            return (state.runner, state.probe)
        }
        probe?.cancel()
        await probe?.value
        runner.cancel()
        await runner.value
    }

    private func probeUntilBack() async {
        while !Task.isCancelled {
            try? await Task.sleep(for: Self.probeInterval)
            guard !Task.isCancelled, await answers() else { continue }
            let (client, runner) = Self.start(location, poolSize: poolSize, logger: logger)
            let replaced: (runner: Task<Void, Never>, since: ContinuousClock.Instant)? = state.withLockedValue { state in
                guard !state.closed, let since = state.outSince else { return nil }
                defer {
                    state.client = client
                    state.runner = runner
                    state.outSince = nil
                    state.probe = nil
                }
                return (state.runner, since)
            }
            guard let replaced else {
                runner.cancel()
                return
            }
            logger.notice(
                "PostgreSQL at \(location) answers again after \(Int(replaced.since.duration(to: .now).components.seconds)) s; serving")
            // The old pool's connections close as their requests end (none waits for it now).
            replaced.runner.cancel()
            return
        }
    }

    /// Whether a connection of the probe's own opens and answers within `probeTimeout`.
    private func answers() async -> Bool {
        let configuration: PostgresConnection.Configuration
        do { configuration = try location.connectionConfiguration() } catch { return false }
        let logger = self.logger
        do {
            return try await Deadline.run(Self.probeTimeout) {
                let connection = try await PostgresConnection.connect(configuration: configuration, id: 0, logger: logger)
                let answer = await Result { try await connection.query("SELECT 1", logger: logger).collect() }
                try? await connection.close()
                return (try? answer.get()) != nil
            }
        } catch {
            return false
        }
    }

    private static func start(_ location: PostgresLocation, poolSize: Int, logger: Logger) -> (PostgresClient, Task<Void, Never>) {
        let client = PostgresClient(configuration: location.poolConfiguration(maximumConnections: poolSize), backgroundLogger: logger)
        return (client, Task { await client.run() })
    }
}
