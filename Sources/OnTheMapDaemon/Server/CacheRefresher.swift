import Foundation
import Logging
import OnTheMapAPI
import ServiceLifecycle
import OnTheMapRPC
import OnTheMapSystemd

/// Refreshes the student list every `refreshInterval` (±10% jitter) and checks that the upstream still
/// accepts the session; after a failure, retries with exponential backoff and jitter, capped at the
/// interval, while the last good list is served stale. Also wakes when the session expires, so its end
/// is announced on time.
struct CacheRefresher: Service {
    let daemon: Daemon
    let logger: Logger

    func run() async throws {
        var failures = 0
        var delay = await initialDelay()
        while !Task.isCancelled {
            switch await daemon.sessionChanged.wait(atMost: delay) {
            case .stopping:
                return
            case .signalled:
                // A login refreshes by itself; the next refresh and the expiry are counted from now.
                failures = 0
                delay = await nextDelay()
                continue
            case .elapsed:
                break
            }
            let interval = await daemon.live.refreshInterval
            // Ends (and announces) a session that has expired meanwhile.
            guard let live = await daemon.liveSession() else {
                failures = 0
                delay = interval
                continue
            }
            do {
                defer { daemon.memoryTrimmer.backgroundWorkDone() }
                try await daemon.refresh()
                try await daemon.verifySession()
                failures = 0
                delay = Self.jittered(interval, by: 0.1)
            } catch let error as RPCError where error.code == RPCError.sessionExpiredCode {
                failures = 0
                delay = interval
                continue
            } catch {
                failures += 1
                delay = Self.backoff(failures: failures, cap: interval)
                logger.notice("refresh failed", metadata: ["retryInSeconds": "\(delay.components.seconds)", "error": "\(error)"])
                daemon.notifier.status(await daemon.statusLine(retryIn: delay))
                daemon.statusLineChanged.signal()
            }
            delay = Self.capped(delay, at: live.session.expiration)
        }
    }

    /// The pause before the next round: the interval (jittered) when logged in, capped at the
    /// session's expiry; the plain interval when logged out.
    private func nextDelay() async -> Duration {
        let interval = await daemon.live.refreshInterval
        guard let live = await daemon.liveSession() else { return interval }
        return Self.capped(Self.jittered(interval, by: 0.1), at: live.session.expiration)
    }

    /// `delay`, or less when the session expires sooner (a moment after its expiration).
    static func capped(_ delay: Duration, at expiration: Date?, now: Date = Date()) -> Duration {
        guard let expiration else { return delay }
        let untilExpiry = Duration.milliseconds(Int64(max(0, expiration.timeIntervalSince(now)) * 1000) + 100)
        return min(delay, untilExpiry)
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
