import Synchronization

/// The daemon's one change feed: the newest `DaemonSnapshot`, readable from any thread, and a wait
/// for the next one. Every part that mirrors state (notifications, systemd's status line, the
/// refresher's wake-ups) reads it; only `DaemonState` publishes.
///
/// Waiters see the newest snapshot, not every one: a reader that falls behind skips the versions in
/// between, so a slow reader never holds up the state nor queues snapshots. Mutex-protected.
final class StateFeed: Sendable {
    private struct State {
        var latest: DaemonSnapshot
        var waiters: [Int: CheckedContinuation<DaemonSnapshot?, Never>] = [:]
        var nextToken = 0
    }

    private let state: Mutex<State>

    init(_ first: DaemonSnapshot) {
        state = Mutex(State(latest: first))
    }

    /// The newest snapshot.
    var latest: DaemonSnapshot { state.withLock { $0.latest } }

    /// Makes `snapshot` the newest and wakes every waiter.
    func publish(_ snapshot: DaemonSnapshot) {
        let waiters = state.withLock { state in
            state.latest = snapshot
            defer { state.waiters = [:] }
            return state.waiters.values
        }
        for waiter in waiters { waiter.resume(returning: snapshot) }
    }

    /// The newest snapshot once its version passes `version` (at once if it already has); nil when
    /// the waiting task is cancelled.
    func next(after version: UInt64) async -> DaemonSnapshot? {
        let token = state.withLock { state in
            defer { state.nextToken += 1 }
            return state.nextToken
        }
        return await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                let ready = state.withLock { state -> DaemonSnapshot?? in
                    if state.latest.version > version { return .some(state.latest) }
                    if Task.isCancelled { return .some(nil) }
                    state.waiters[token] = continuation
                    return nil
                }
                if let ready { continuation.resume(returning: ready) }
            }
        } onCancel: {
            state.withLock { $0.waiters.removeValue(forKey: token) }?.resume(returning: nil)
        }
    }
}
