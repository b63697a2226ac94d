import CConcurrencyHooks
import NIOCore
import NIOPosix

#if canImport(Glibc)
import Glibc
#endif

/// Runs Swift concurrency's global jobs, the ends of sleeps included, on the daemon's NIO event
/// loops instead of libdispatch's worker pool.
///
/// Why: as soon as its first pooled worker runs, libdispatch (on Linux) starts a timer that checks
/// the pool once a second, and keeps it for the life of the process: the idle daemon woke 60 times a
/// minute for it alone. An event loop sleeps in `epoll_wait` until a socket or a scheduled task
/// needs it. Jobs also stop hopping between the pool and the loop that serves their connection.
///
/// SwiftNIO's `NIOSingletons.unsafeTryInstallSingletonPosixEventLoopGroupAsConcurrencyGlobalExecutor`
/// does the first part, but finds the hook with `dlsym`, which a `--static-swift-stdlib` build does
/// not export; sleeps would still end on a Dispatch worker. So the three hooks are set here, to the
/// same effect. Work that blocks for long (loading the gazetteer, writing files) must stay off the
/// loops, as NIO asks of any code running on them.
public enum EventLoopConcurrency {
    private typealias Job = UnownedJob
    private typealias EnqueueGlobal = @convention(thin) (Job, @convention(thin) (Job) -> Void) -> Void
    private typealias EnqueueWithDelay =
        @convention(thin) (UInt64, Job, @convention(thin) (UInt64, Job) -> Void) -> Void
    private typealias EnqueueWithDeadline =
        @convention(thin) (
            Int64, Int64, Int64, Int64, Int32, Job,
            @convention(thin) (Int64, Int64, Int64, Int64, Int32, Job) -> Void
        ) -> Void

    /// Call once, first thing in `main`, before any task exists.
    public static func install() {
        let global: EnqueueGlobal = { job, _ in EventLoopConcurrency.run(job, afterNanoseconds: 0) }
        let delayed: EnqueueWithDelay = { delay, job, _ in
            EventLoopConcurrency.run(job, afterNanoseconds: Int64(clamping: delay))
        }
        let deadline: EnqueueWithDeadline = { seconds, nanoseconds, _, _, clock, job, _ in
            EventLoopConcurrency.run(job, afterNanoseconds: EventLoopConcurrency.nanosecondsUntil(seconds, nanoseconds, clock: clock))
        }
        onthemap_set_concurrency_hooks(
            unsafeBitCast(global, to: UnsafeMutableRawPointer.self),
            unsafeBitCast(delayed, to: UnsafeMutableRawPointer.self),
            unsafeBitCast(deadline, to: UnsafeMutableRawPointer.self))
    }

    /// Runs `job` on one of the singleton group's loops (the current one when called from a loop),
    /// now or after `delay` nanoseconds.
    private static func run(_ job: Job, afterNanoseconds requested: Int64) {
        // At most ten years: NIO's deadlines are not meant to overflow.
        let delay = min(requested, 315_360_000_000_000_000)
        let loop = MultiThreadedEventLoopGroup.singleton.any()
        guard delay > 0 else {
            loop.enqueue(ExecutorJob(job))
            return
        }
        loop.scheduleTask(in: .nanoseconds(delay)) { loop.enqueue(ExecutorJob(job)) }
    }

    /// Nanoseconds from now to a deadline on the runtime's clock `clock` (1: `ContinuousClock`,
    /// CLOCK_BOOTTIME; 2: `SuspendingClock`, CLOCK_MONOTONIC). NIO's timers run on CLOCK_MONOTONIC,
    /// so a continuous-clock sleep that spans a system suspend ends that much later.
    private static func nanosecondsUntil(_ seconds: Int64, _ nanoseconds: Int64, clock: Int32) -> Int64 {
        var now = timespec()
        clock_gettime(clock == 1 ? CLOCK_BOOTTIME : CLOCK_MONOTONIC, &now)
        let (deltaSeconds, overflow) = (seconds - Int64(now.tv_sec)).multipliedReportingOverflow(by: 1_000_000_000)
        guard !overflow else { return seconds > Int64(now.tv_sec) ? Int64.max : 0 }
        return deltaSeconds.addingReportingOverflow(nanoseconds - Int64(now.tv_nsec)).overflow
            ? Int64.max : deltaSeconds + (nanoseconds - Int64(now.tv_nsec))
    }
}
