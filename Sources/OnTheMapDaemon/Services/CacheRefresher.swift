import FoundationEssentials
import Logging
import OnTheMapAPI
import OnTheMapRPC
import ServiceLifecycle

/// Refreshes the student list every `refreshInterval` (±10% jitter), each refresh checking that the
/// upstream still accepts the session; after a failure, retries with exponential backoff and
/// jitter, capped at the interval, while the last good list is served stale. Follows the state's
/// change feed: a new session (a login refreshes by itself) starts the count again, and a round is
/// due when the session expires, so its end is announced on time.
struct CacheRefresher: Service {
    let daemon: Daemon
    let logger: Logger

    func run() async throws {
        var failures = 0
        var seen = daemon.state.current
        var due = ContinuousClock.now + (await initialDelay(seen))
        while !Task.isCancelled {
            switch await daemon.state.feed.next(after: seen.version, atMost: max(.zero, due - .now)) {
            case .stopping:
                return
            case .changed(let snapshot):
                defer { seen = snapshot }
                if snapshot.session?.sessionID != seen.session?.sessionID {
                    failures = 0
                    due = .now + (await nextDelay())
                } else if failures == 0, snapshot.lastError != nil, seen.lastError == nil {
                    // A refresh asked for elsewhere failed (`onthemap refresh`, a list asked to be
                    // fresh): tried again as the refresher's own would be, not at the next round,
                    // minutes away, while the bars said "stale" of a server long back.
                    failures = 1
                    let delay = Self.backoff(failures: failures, cap: await daemon.live.refreshInterval)
                    due = min(due, .now + delay)
                    await daemon.state.retry(at: Date().addingTimeInterval(Double(delay.components.seconds)))
                }
                continue
            case .elapsed:
                break
            }
            let interval = await daemon.live.refreshInterval
            var delay = interval
            // Ends (and announces) a session that has expired meanwhile.
            if let live = await daemon.liveSession() {
                do {
                    try await daemon.refresh()
                    failures = 0
                    delay = Self.jittered(interval, by: 0.1)
                    await daemon.state.retry(at: nil)
                } catch let error as RPCError where error.code == RPCError.sessionExpiredCode {
                    failures = 0
                } catch {
                    failures += 1
                    delay = Self.backoff(failures: failures, cap: interval)
                    logger.notice("refresh failed", metadata: ["retryInSeconds": "\(delay.components.seconds)", "error": "\(error)"])
                    await daemon.state.retry(at: Date().addingTimeInterval(Double(delay.components.seconds)))
                }
                delay = Self.capped(delay, at: live.session.expiration)
            } else {
                failures = 0
            }
            // The round's own changes (busy, the list, the end of a rejected session) are behind us.
            seen = daemon.state.current
            due = .now + delay
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
    private func initialDelay(_ snapshot: DaemonSnapshot) async -> Duration {
        let interval = await daemon.live.refreshInterval
        guard let refreshedAt = snapshot.refreshedAt else { return .zero }
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
