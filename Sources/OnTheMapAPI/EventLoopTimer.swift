import NIOCore
import NIOPosix

/// Sleeps on a NIO event loop's timer instead of `Task.sleep`.
///
/// In Swift 6.3 on Linux, `Task.sleep` asks the default executor, libdispatch, to resume it: its
/// wake-up lands on a global queue, whose first worker starts a once-a-second pool monitor that
/// never stops (one sleep, and an idle daemon wakes 60 times a minute for the rest of its life; see
/// `EventLoopConcurrency` in the daemon). The runtime's delayed-enqueue hooks are not consulted on
/// that path. A loop's timer is the timeout of its `epoll_wait`: nothing runs until it is due.
///
/// NIO's timers run on `CLOCK_MONOTONIC`, which stops while the machine is suspended, where
/// `Task.sleep(for:)` counts on `ContinuousClock` (`CLOCK_BOOTTIME`): after a laptop resumes, a
/// sleep ends late by the time suspended. The daemon's periodic work (refresh, status line) then
/// runs that much later; its answers compute ages and expiry from the wall clock, not from timers.
public enum EventLoopTimer {
    /// Longest sleep: ten years. NIO's deadlines are not meant to overflow.
    static let longest = Duration.seconds(315_360_000)

    /// Returns after `duration` (at once when it is not positive), or throws `CancellationError`
    /// as soon as the task is cancelled.
    public static func sleep(for duration: Duration) async throws {
        try Task.checkCancellation()
        guard duration > .zero else { return }
        let (seconds, attoseconds) = min(duration, longest).components
        let nanoseconds = seconds * 1_000_000_000 + attoseconds / 1_000_000_000
        let scheduled = MultiThreadedEventLoopGroup.singleton.any().scheduleTask(in: .nanoseconds(nanoseconds)) {}
        try await withTaskCancellationHandler {
            do {
                try await scheduled.futureResult.get()
            } catch {
                throw CancellationError()
            }
        } onCancel: {
            scheduled.cancel()
        }
    }
}
