import Logging
import NIOConcurrencyHelpers
import ServiceLifecycle

/// Checks the stored data's integrity (`ServerStorage.integrityProblems`: SQLite's `PRAGMA
/// quick_check`) when the server starts and then on a schedule, and keeps the last verdict, which
/// `/healthz` and `onthemap_database_up` report without running the check themselves.
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

    /// A monitor of `storage`'s integrity, checked every `interval` (nil: at start only).
    public init(storage: any ServerStorage, interval: Duration?, logger: Logger) {
        self.storage = storage
        self.interval = interval
        self.logger = logger
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
            guard let interval = self.interval else { return }
            while true {
                do { try await Task.sleep(for: interval) } catch { return }
                await self.check()
            }
        }
    }

    /// Runs one check and logs a change of verdict (once, not at every check).
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
    }
}
