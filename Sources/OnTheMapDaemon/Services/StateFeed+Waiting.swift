import OnTheMapAPI
import ServiceLifecycle

/// Why a service's wait on the feed ended.
enum FeedWake {
    /// A newer snapshot: this one.
    case changed(DaemonSnapshot)
    /// The time given passed first.
    case elapsed
    /// The daemon is shutting down (or the task was cancelled).
    case stopping
}

extension StateFeed {
    /// Waits for a snapshot newer than `version`, for at most `delay` (without limit when nil).
    /// The daemon's services wait here: on an event-loop timer, not `Task.sleep` (see
    /// `EventLoopTimer`), and `.stopping` once the daemon shuts down gracefully.
    func next(after version: UInt64, atMost delay: Duration?) async -> FeedWake {
        await cancelWhenGracefulShutdown {
            await withTaskGroup(of: FeedWake.self) { group in
                if let delay {
                    group.addTask {
                        do {
                            try await EventLoopTimer.sleep(for: delay)
                            return .elapsed
                        } catch {
                            return .stopping
                        }
                    }
                }
                group.addTask {
                    guard let snapshot = await self.next(after: version) else { return .stopping }
                    return .changed(snapshot)
                }
                let first = await group.next() ?? .stopping
                group.cancelAll()
                return first
            }
        }
    }

    /// Returns true once the daemon is ready (`DaemonSnapshot.ready`); false when it stops first.
    func ready() async -> Bool {
        var latest = self.latest
        while !latest.ready {
            guard case .changed(let newer) = await next(after: latest.version, atMost: nil) else { return false }
            latest = newer
        }
        return true
    }
}
