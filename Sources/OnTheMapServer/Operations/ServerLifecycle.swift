import GRDB
import Hummingbird
import Logging
import OnTheMapSystemd
import ServiceLifecycle
import UnixSignals

/// Runs the server until SIGTERM or SIGINT, then shuts down in order: tell systemd `STOPPING=1`, stop
/// accepting, let the requests in flight finish (Hummingbird quiesces each connection), and close the
/// storage (SQLite checkpoints its WAL into the main file first; PostgreSQL closes its pool).
///
/// `READY=1` is sent by the caller once the socket listens (see `SystemdNotifier.serving(at:)`).
public enum ServerLifecycle {
    /// Runs `app`, which listens on `host`:`port`; returns once everything has stopped.
    public static func run(
        _ app: some ApplicationProtocol, host: String, port: Int, storage: any ServerStorage, logger: Logger
    ) async throws {
        let group = ServiceGroup(
            configuration: .init(
                // Services stop in reverse order: the notice first, then the HTTP server.
                services: [.init(service: app), .init(service: StoppingNotice())],
                gracefulShutdownSignals: [.sigterm, .sigint],
                logger: logger))
        do {
            try await group.run()
        } catch {
            await storage.close()
            throw ListenFailure(error, host: host, port: port) ?? error
        }
        await storage.close()
        logger.info("stopped; database closed")
    }
}

extension SystemdNotifier {
    /// `READY=1` with the URL served, once the socket listens.
    public func serving(at url: String) {
        ready(status: "serving \(url)")
    }
}

/// Sends `STOPPING=1` as soon as shutdown begins, before the requests in flight have drained.
struct StoppingNotice: Service {
    func run() async throws {
        // Returns at graceful shutdown; cancellation (the server failed) sends nothing.
        try await gracefulShutdown()
        SystemdNotifier().stopping()
    }
}

extension AppDatabase {
    /// Moves everything in the WAL into the main file, closes the connections, and leaves the file
    /// alone in its folder: no `-wal` or `-shm` beside it once no other process has it open.
    ///
    /// The checkpoint is explicit because GRDB closes a pool's writer before its readers, and the last
    /// connection to close, a read-only one, cannot checkpoint: the WAL would be left full. For the same
    /// reason it cannot delete the (now empty) `-wal` and `-shm`, so one read-write connection is opened
    /// and closed after the pool: SQLite's last connection to a WAL database removes both files.
    public func closeConnections() throws {
        if let pool = writer as? DatabasePool {
            try pool.writeWithoutTransaction { db in _ = try db.checkpoint(.truncate) }
            let path = pool.path
            try pool.close()
            let last = try DatabaseQueue(path: path)
            try last.read { db in _ = try Int.fetchOne(db, sql: "SELECT count(*) FROM sqlite_master") }
            try last.close()
        } else if let queue = writer as? DatabaseQueue {
            try queue.close()
        }
    }
}
