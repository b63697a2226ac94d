import Logging
import NIOConcurrencyHelpers
import PostgresNIO

/// Learns of pin changes from PostgreSQL itself: every statement that changes pins runs a trigger
/// that sends `NOTIFY onthemap_locations` (delivered when its transaction commits), and each replica
/// keeps one connection of its own that `LISTEN`s for it.
///
/// Bounds, documented in docs/DEPLOY.md:
/// - This process's own writes move the mark before their response is sent (`noteLocalChange`).
/// - Another replica's or an admin command's write arrives as a notification, normally within a
///   millisecond of its commit.
/// - Should a notification be lost, the watch also reads the pins' version every `checkInterval`,
///   so no answer is stale for longer than that (plus the read's `checkTimeout`).
/// - Without its connection (lost, or PostgreSQL restarting) the watch answers nil, and the cache
///   asks the database on every request until the watch listens again.
///
/// It is also how the replica learns that the database is back, and one way it learns that it is out
/// (`PostgresDatabase.markOut`,
/// `markBack`): PostgreSQL stopping closes this connection at once, and the next attempt, made at
/// once, is refused, so requests are refused from then on (and those already waiting answered)
/// instead of each waiting for its deadline; a database that stops answering fails the watch's
/// check, and then the connect's timeout. An attempt that PostgreSQL refuses for a reason only an
/// operator can change (the role's password changed, the database dropped) is an outage too, said
/// in PostgreSQL's words.
final class PostgresChangeWatch: LocationChangeWatch {
    static let channel = "onthemap_locations"
    static let checkInterval: Duration = .seconds(1)
    static let checkTimeout: Duration = .seconds(2)

    private struct State {
        var listening = false
        var mark: UInt64 = 0
        var runner: Task<Void, Never>?
        var stopped = false
        /// Whether the loss of notifications has been logged (once per loss, and their return once).
        var lossLogged = false
    }

    private let state = NIOLockedValueBox(State())
    private let configuration: PostgresConnection.Configuration
    private let database: PostgresDatabase
    private let logger: Logger

    init(_ location: PostgresLocation, database: PostgresDatabase, logger: Logger) throws {
        configuration = try location.connectionConfiguration(.changeWatch)
        self.database = database
        self.logger = logger
    }

    func mark() -> UInt64? {
        state.withLockedValue { $0.listening ? $0.mark : nil }
    }

    /// This process changed pins: its next answer must show it, before the notification comes back.
    func noteLocalChange() {
        state.withLockedValue { $0.mark &+= 1 }
    }

    /// Starts listening (once; later calls do nothing).
    func start() {
        let started = state.withLockedValue { state in
            guard state.runner == nil, !state.stopped else { return false }
            state.runner = Task { await self.run() }
            return true
        }
        if started { database.watchOutages() }
    }

    /// Stops listening and closes the connection.
    func stop() async {
        let runner = state.withLockedValue { state in
            state.stopped = true
            state.listening = false
            return state.runner
        }
        runner?.cancel()
        await runner?.value
    }

    private func setListening(_ listening: Bool) {
        let back = state.withLockedValue { state in
            state.listening = listening
            // Whatever was checked before this moment is checked again.
            state.mark &+= 1
            defer { if listening { state.lossLogged = false } }
            return listening && state.lossLogged
        }
        if back { logger.notice("pin change notifications are back") }
    }

    /// Logs a loss of notifications once, however many attempts to listen again fail.
    private func noteLoss(_ error: any Error) {
        guard state.withLockedValue({ state in defer { state.lossLogged = true }; return !state.lossLogged }) else { return }
        logger.warning(
            "pin change notifications lost; checking the database on each request until they return",
            metadata: ["error": "\(describeStorageFailure(error))"])
    }

    private func run() async {
        var attempt = 0
        while !Task.isCancelled {
            attempt += 1
            var listenedFor: Duration = .zero
            do {
                let connection: PostgresConnection
                do {
                    connection = try await PostgresConnection.connect(
                        configuration: configuration, id: attempt, logger: logger)
                } catch let error as PSQLError
                    where PostgresErrors.meansUnreachable(error) || PostgresErrors.needsOperator(error)
                {
                    database.markOut(PostgresErrors.summary(error))
                    throw error
                }
                database.markBack()
                let connected = ContinuousClock.now
                let result = await Result { try await watch(on: connection) }
                listenedFor = connected.duration(to: .now)
                try? await connection.close()
                try result.get()
            } catch {
                if !Task.isCancelled { noteLoss(error) }
            }
            setListening(false)
            // A connection that had been listening a while and is lost (PostgreSQL stopping closes
            // it first) is tried again at once: if the database is gone, the attempt is refused and
            // the pool knows within milliseconds, instead of a second later, in which requests
            // would wait on connections the pool cannot open. Otherwise once a second.
            if listenedFor < Self.checkInterval {
                try? await Task.sleep(for: .seconds(1))
            }
        }
    }

    /// Listens until the connection fails or the task is cancelled.
    private func watch(on connection: PostgresConnection) async throws {
        try await connection.listen(on: Self.channel) { notifications in
            let first = try await Self.pinsVersion(connection, logger)
            setListening(true)
            try await withThrowingTaskGroup(of: Void.self) { group in
                group.addTask {
                    for try await _ in notifications { self.noteLocalChange() }
                    throw NotificationsEnded()
                }
                group.addTask {
                    var seen = first
                    while true {
                        try await Task.sleep(for: Self.checkInterval)
                        let version = try await AbandoningDeadline.run(Self.checkTimeout) {
                            try await Self.pinsVersion(connection, self.logger)
                        }
                        if version != seen {
                            seen = version
                            self.noteLocalChange()
                        }
                    }
                }
                try await group.next()
                group.cancelAll()
            }
        }
    }

    private static func pinsVersion(_ connection: PostgresConnection, _ logger: Logger) async throws -> Int64 {
        let rows = try await connection.query(
            PostgresSchema.locationsVersion, logger: logger
        ).collect()
        return try rows.first?.decode(Int64.self) ?? 0
    }

    /// The notification stream ended without an error: the connection is gone.
    private struct NotificationsEnded: Error {}
}
