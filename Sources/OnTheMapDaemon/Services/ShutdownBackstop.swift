import Dispatch
import FoundationEssentials
import Glibc
import Logging
import ServiceLifecycle

/// Bounds how long stopping may take: once shutdown begins, a timer outside Swift's cooperative pool
/// exits the process with status 1 and a log line if it is still running `limit` later. Every service
/// honours cancellation, so this only fires on a bug; systemd's own limit (`TimeoutStopSec=10s`) would
/// otherwise end it with SIGKILL and no word why.
///
/// Listed last in the service group, so graceful shutdown (which goes in reverse order) reaches it first.
struct ShutdownBackstop: Service {
    let logger: Logger
    var limit: DispatchTimeInterval = .seconds(8)

    func run() async throws {
        // Returns on graceful shutdown, throws on cancellation: either way, the daemon is stopping.
        try? await gracefulShutdown()
        let logger = self.logger
        let limit = self.limit
        // A serial queue, not a global one: see EventLoopConcurrency on libdispatch's pool monitor.
        DispatchQueue(label: "onthemap.shutdown-backstop").asyncAfter(deadline: .now() + limit) {
            logger.critical("stopping took longer than \(limit); exiting now")
            exit(1)
        }
    }
}
