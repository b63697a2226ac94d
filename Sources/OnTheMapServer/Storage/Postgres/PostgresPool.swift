import Logging
import NIOConcurrencyHelpers
import PostgresNIO

/// The connection pool, and what this replica knows of PostgreSQL's reachability.
///
/// PostgresNIO's pool, left to itself through an outage, serves it badly: a request waits for a
/// connection until the operation's deadline (10 s) however certainly the database is gone; the
/// pool retries with a back-off that grows to a minute, so a database that came back is used only
/// when the back-off runs out; and after 60 s of failures it fails every request with an error of
/// its own. So once the database is found unreachable, it is *out*: requests are refused at once (a
/// 503 that says so), and a probe opens a connection of its own every second. When one gets an
/// answer, a fresh pool (no back-off to sit out) replaces the old one and requests go through.
///
/// What counts as found: the change watch failing to open its connection (`markOut`), or an
/// operation failing as if the database were gone (a deadline passed, a connection cut) and a
/// connection of the probe's own failing right after (`suspect`): one slow statement or one
/// terminated backend does not take a healthy replica out.
final class PostgresPool: Sendable {
    /// How often the probe tries while the database is out, and how long one try may take.
    static let probeInterval: Duration = .seconds(1)
    static let probeTimeout: Duration = .seconds(5)

    private struct State {
        var client: PostgresClient
        var runner: Task<Void, Never>
        /// When the database was found unreachable; nil while it answers.
        var outSince: ContinuousClock.Instant?
        /// The probe, while out.
        var probe: Task<Void, Never>?
        /// The one check that follows a suspicion, while it runs.
        var check: Task<Void, Never>?
        /// Replaced pools, each shut down once the requests it was running have had their time.
        var retiring: [Task<Void, Never>] = []
        var closed = false
        /// The operations under way, abandoned with a 503 the moment the database is found out:
        /// one waiting for a connection would otherwise wait for its deadline (10 s).
        var operations: [Int: Abandonment] = [:]
        var nextOperation = 0
    }

    private let state: NIOLockedValueBox<State>
    private let location: PostgresLocation
    private let poolSize: Int
    /// How long a replaced pool keeps running for the requests it holds: their deadline.
    private let retireAfter: Duration
    private let logger: Logger

    init(_ location: PostgresLocation, poolSize: Int, retireAfter: Duration, logger: Logger) {
        self.location = location
        self.poolSize = poolSize
        self.retireAfter = retireAfter
        self.logger = logger
        let (client, runner) = Self.start(location, poolSize: poolSize, logger: logger)
        state = NIOLockedValueBox(State(client: client, runner: runner))
    }

    /// The pool to run an operation on; throws `StorageError.out` while the database is out.
    func client() throws -> PostgresClient {
        try state.withLockedValue { state in
            guard let since = state.outSince else { return state.client }
            throw outError(since: since)
        }
    }

    /// Registers an operation to abandon with `StorageError.out` when the database is found out (at
    /// once if it is out already); `finished` takes it off again.
    func abandonWhenOut(_ abandonment: Abandonment) -> Int {
        let (id, outSince) = state.withLockedValue { state in
            state.nextOperation &+= 1
            if state.outSince == nil { state.operations[state.nextOperation] = abandonment }
            return (state.nextOperation, state.outSince)
        }
        if let outSince { abandonment.fire(outError(since: outSince)) }
        return id
    }

    /// The operation registered as `id` ended.
    func finished(_ id: Int) {
        _ = state.withLockedValue { $0.operations.removeValue(forKey: id) }
    }

    /// An operation on `client` failed as if the database were gone: whether it is out, once the
    /// probe's own connection has said (waiting `limit` at most for it). A refused connection says
    /// so in milliseconds; a database that accepts and never answers takes longer, and is then not
    /// yet known out.
    func confirmsOut(_ reason: String, ranOn client: PostgresClient, waitingAtMost limit: Duration) async -> Bool {
        suspect(reason, ranOn: client)
        if let check = state.withLockedValue({ $0.check }) {
            _ = try? await AbandoningDeadline.run(limit) { await check.value }
        }
        return state.withLockedValue { $0.outSince != nil }
    }

    private func outError(since: ContinuousClock.Instant) -> StorageError {
        StorageError.out(
            "PostgreSQL at \(location) has not answered for \(Int(since.duration(to: .now).components.seconds)) s")
    }

    /// The database's URL without its password, for messages.
    var locationName: String { "\(location)" }

    /// The pool requests use now, whether or not the database is out.
    var current: PostgresClient {
        state.withLockedValue { $0.client }
    }

    /// An operation on `client` failed as if the database were gone: a connection of the probe's
    /// own decides, at once, whether it is out. Nothing if that pool has been replaced since (the
    /// operation waited through an outage already over) or a check is under way.
    func suspect(_ reason: String, ranOn client: PostgresClient) {
        state.withLockedValue { state in
            guard !state.closed, state.outSince == nil, state.check == nil, client === state.client else { return }
            state.check = Task {
                let reachable = await self.reachable()
                self.state.withLockedValue { $0.check = nil }
                if !reachable { self.markOut(reason, ranOn: client) }
            }
        }
    }

    /// The database was found unreachable from `client`'s time: refuse requests until the probe
    /// reaches it.
    func markOut(_ reason: String, ranOn client: PostgresClient) {
        let abandoned: [Abandonment]? = state.withLockedValue { state in
            guard !state.closed, state.outSince == nil, client === state.client else { return nil }
            state.outSince = .now
            state.probe = Task { await self.probeUntilBack() }
            defer { state.operations.removeAll() }
            return Array(state.operations.values)
        }
        guard let abandoned else { return }
        logger.error("PostgreSQL at \(location) is unreachable (\(reason)); refusing requests until it answers again")
        // Answered now, not at their deadline; logged at debug (StorageError.out), as the outage is
        // logged once, above.
        let error = StorageError.out("PostgreSQL at \(location) became unreachable: \(reason)")
        for operation in abandoned { operation.fire(error) }
    }

    /// Stops the probe and every pool; waits for their connections to close.
    func close() async {
        let (tasks, runner) = state.withLockedValue { state in
            state.closed = true
            return ([state.probe, state.check].compactMap { $0 } + state.retiring, state.runner)
        }
        for task in tasks { task.cancel() }
        for task in tasks { await task.value }
        runner.cancel()
        await runner.value
    }

    private func probeUntilBack() async {
        while !Task.isCancelled {
            try? await Task.sleep(for: Self.probeInterval)
            guard !Task.isCancelled, await reachable() else { continue }
            let (client, runner) = Self.start(location, poolSize: poolSize, logger: logger)
            let since: ContinuousClock.Instant? = state.withLockedValue { state in
                guard !state.closed, let since = state.outSince else { return nil }
                state.retiring.append(Self.retire(state.runner, after: retireAfter))
                state.client = client
                state.runner = runner
                state.outSince = nil
                state.probe = nil
                return since
            }
            guard let since else {
                runner.cancel()
                await runner.value
                return
            }
            logger.notice(
                "PostgreSQL at \(location) answers again after \(Int(since.duration(to: .now).components.seconds)) s; serving")
            return
        }
    }

    /// Shuts a replaced pool down once the requests it holds have had their deadline: cancelling its
    /// run ends its connections at once, in-flight queries included. Sooner if cancelled (`close()`).
    private static func retire(_ runner: Task<Void, Never>, after delay: Duration) -> Task<Void, Never> {
        Task {
            try? await Task.sleep(for: delay)
            runner.cancel()
            await runner.value
        }
    }

    /// Whether a connection of the probe's own gets an answer within `probeTimeout`. A refusal from
    /// the server itself (too many connections, a password no longer accepted) is an answer: the
    /// database is there, and the requests should say what it says.
    private func reachable() async -> Bool {
        let configuration: PostgresConnection.Configuration
        do { configuration = try location.connectionConfiguration(.probe) } catch { return false }
        let logger = self.logger
        do {
            return try await AbandoningDeadline.run(Self.probeTimeout) {
                let connection = try await PostgresConnection.connect(configuration: configuration, id: 0, logger: logger)
                let answer = await Result { try await connection.query("SELECT 1", logger: logger).collect() }
                try? await connection.close()
                _ = try answer.get()
                return true
            }
        } catch let error as PSQLError {
            return error.code == .server && !PostgresErrors.meansUnreachable(error)
        } catch {
            return false
        }
    }

    private static func start(_ location: PostgresLocation, poolSize: Int, logger: Logger) -> (PostgresClient, Task<Void, Never>) {
        let client = PostgresClient(configuration: location.poolConfiguration(maximumConnections: poolSize), backgroundLogger: logger)
        return (client, Task { await client.run() })
    }
}
