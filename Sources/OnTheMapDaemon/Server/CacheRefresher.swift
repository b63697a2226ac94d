import Foundation
import Logging
import ServiceLifecycle
import OnTheMapSystemd

/// Refreshes the student list every `refreshInterval` (±10% jitter); after a failure, retries with
/// exponential backoff and jitter, capped at the interval, while the last good list is served stale.
struct CacheRefresher: Service {
    let daemon: Daemon
    let logger: Logger

    func run() async throws {
        var failures = 0
        var delay = await initialDelay()
        while !Task.isCancelled {
            do {
                try await cancelWhenGracefulShutdown { [delay] in try await Task.sleep(for: delay) }
            } catch {
                return
            }
            let interval = await daemon.live.refreshInterval
            guard await daemon.sessions.current() != nil else {
                failures = 0
                delay = interval
                continue
            }
            do {
                try await daemon.refresh()
                failures = 0
                delay = Self.jittered(interval, by: 0.1)
            } catch {
                failures += 1
                delay = Self.backoff(failures: failures, cap: interval)
                logger.notice("refresh failed", metadata: ["retryInSeconds": "\(delay.components.seconds)", "error": "\(error)"])
                daemon.notifier.status(await daemon.statusLine(retryIn: delay))
            }
        }
    }

    /// Zero when the cached list is missing or older than the interval, else what remains of it.
    private func initialDelay() async -> Duration {
        let interval = await daemon.live.refreshInterval
        guard let refreshedAt = await daemon.cache.refreshedAt else { return .zero }
        let age = Date().timeIntervalSince(refreshedAt)
        let remaining = Double(interval.components.seconds) - age
        return remaining <= 0 ? .zero : .milliseconds(Int64(remaining * 1000))
    }

    static func backoff(failures: Int, cap: Duration) -> Duration {
        let base = Duration.seconds(1) * (1 << min(failures - 1, 16))
        return jittered(min(base, cap), by: 0.2)
    }

    static func jittered(_ duration: Duration, by fraction: Double) -> Duration {
        duration * Double.random(in: (1 - fraction)...(1 + fraction))
    }
}
