import Logging
import NIOConcurrencyHelpers
import ServiceLifecycle

/// Checks the stored data's integrity (`ServerStorage.integrityProblems`: SQLite's `PRAGMA
/// quick_check`) when the server starts, then on a schedule, and at once when a request meets a
/// damaged page; keeps the last verdict, which `/healthz` and `onthemap_database_up` report without
/// running the check themselves.
///
/// A file with damaged pages otherwise passed `/healthz` (its `SELECT 1` touches none of them)
/// while every list request answered 500: a load balancer kept sending traffic to it, and nobody
/// was told.
public final class IntegrityMonitor: Service, Sendable {
    /// The default time between checks.
    public static let defaultInterval: Duration = .seconds(300)

    private let storage: any ServerStorage
    /// Nil: only the check at start.
    private let interval: Duration?
    private let logger: Logger
    /// The last check's findings (empty: sound, or not checked yet); guarded, read by every health check.
    private let findings = NIOLockedValueBox<[String]>([])
    /// Whether a check set off by a request runs now: requests meeting damage together start one.
    private let checkingNow = NIOLockedValueBox(false)

    /// A monitor of `storage`'s integrity, checked every `interval` (nil: at start only) and whenever
    /// an operation meets damage.
    public init(storage: any ServerStorage, interval: Duration?, logger: Logger) {
        self.storage = storage
        self.interval = interval
        self.logger = logger
        storage.whenDamageMet { [weak self] in self?.checkNow() }
    }

    /// Runs a check now, unless one set off this way is running or damage is already known: a
    /// request that met a damaged page makes `/healthz` say so at once, not at the next turn.
    func checkNow() {
        let start = checkingNow.withLockedValue { checking in
            guard !checking, problems.isEmpty else { return false }
            checking = true
            return true
        }
        guard start else { return }
        Task {
            await check()
            checkingNow.withLockedValue { $0 = false }
        }
    }

    /// What the last check found wrong; empty while sound (or before the first check ends).
    var problems: [String] {
        findings.withLockedValue { $0 }
    }

    public func run() async throws {
        // A shutdown ends the wait, not the server with an error: the sleep's CancellationError is
        // how the wait ends, so it is not thrown on (it made a clean stop exit 1).
        await cancelWhenGracefulShutdown {
            await self.check()
            // With no schedule, the service still lives until shutdown: one that returns ends the
            // server ("finished unexpectedly"), which `--integrity-check-interval 0` did at start.
            guard let interval = self.interval else {
                try? await gracefulShutdown()
                return
            }
            while true {
                do { try await Task.sleep(for: interval) } catch { return }
                await self.check()
            }
        }
    }

    /// Runs one check and logs a change of verdict (once, not at every check); each check's verdict
    /// at debug.
    func check() async {
        // A database that does not answer is the health check's ping's to report, not this.
        guard let found = try? await storage.integrityProblems() else { return }
        let before = findings.withLockedValue { findings in
            defer { findings = found }
            return findings
        }
        if !found.isEmpty, before.isEmpty {
            logger.error(
                "the database failed its integrity check (\(found.prefix(3).joined(separator: "; "))); /healthz answers 503 until it passes: stop the server and restore the last backup (onthemap-server restore)",
                metadata: ["database": "\(storage.displayName)"])
        } else if found.isEmpty, !before.isEmpty {
            logger.notice("the database passes its integrity check again", metadata: ["database": "\(storage.displayName)"])
        }
        logger.debug(found.isEmpty ? "integrity check: sound" : "integrity check: damaged")
    }
}
