import NIOCore
import NIOPosix

/// Sleeps on a NIO event loop's timer instead of `Task.sleep`.
///
/// In Swift 6.3 on Linux, `Task.sleep` hands its wake-up to libdispatch's global queue, whose first
/// worker starts a once-a-second pool monitor that never stops: one sleep, and an idle daemon wakes
/// 60 times a minute for the rest of its life (see `EventLoopConcurrency` in the daemon). A loop's
/// timer is the timeout of its `epoll_wait`: nothing runs until it is due.
public enum EventLoopTimer {
    /// Returns after `duration`, or throws `CancellationError` as soon as the task is cancelled.
    public static func sleep(for duration: Duration) async throws {
        let nanoseconds = duration.components.seconds.multipliedReportingOverflow(by: 1_000_000_000)
        // At most ten years: NIO's deadlines are not meant to overflow.
        let amount = nanoseconds.overflow
            ? Int64(315_360_000_000_000_000)
            : min(nanoseconds.partialValue + duration.components.attoseconds / 1_000_000_000, 315_360_000_000_000_000)
        let scheduled = MultiThreadedEventLoopGroup.singleton.any().scheduleTask(in: .nanoseconds(max(0, amount))) {}
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
