import CConcurrencyHooks
import NIOCore
import NIOPosix

/// Runs Swift concurrency's global jobs on the daemon's NIO event loops instead of libdispatch's
/// worker pool.
///
/// Why: as soon as its first pooled worker runs, libdispatch (on Linux) starts a timer that checks
/// the pool once a second, and keeps it for the life of the process: the idle daemon woke 60 times a
/// minute for it alone. An event loop sleeps in `epoll_wait` until a socket or a scheduled task
/// needs it. Jobs also stop hopping between the pool and the loop that serves their connection.
///
/// Only jobs to run now go through the hook. Swift 6.3 hands a `Task.sleep`'s wake-up straight to
/// its default executor (a global Dispatch queue) without asking the runtime's delayed-enqueue
/// hooks, so the daemon sleeps with `EventLoopTimer` instead, and blocking work (loading the
/// gazetteer, drawing maps, writing state files, trimming memory) goes to serial Dispatch queues,
/// whose threads the pool monitor does not watch.
///
/// SwiftNIO's `NIOSingletons.unsafeTryInstallSingletonPosixEventLoopGroupAsConcurrencyGlobalExecutor`
/// does the same, but finds the hook with `dlsym`, which a `--static-swift-stdlib` build does not
/// export; so the hook is set here. Job priorities are not kept: the loops run jobs in order, as
/// NIO's own takeover does.
public enum EventLoopConcurrency {
    private typealias EnqueueGlobal = @convention(thin) (UnownedJob, @convention(thin) (UnownedJob) -> Void) -> Void

    /// Call once, first thing in `main`, before any task exists.
    public static func install() {
        let enqueue: EnqueueGlobal = { job, _ in
            // The current loop when called from one; otherwise the next in turn.
            MultiThreadedEventLoopGroup.singleton.any().enqueue(ExecutorJob(job))
        }
        onthemap_set_enqueue_global_hook(unsafeBitCast(enqueue, to: UnsafeMutableRawPointer.self))
    }
}
