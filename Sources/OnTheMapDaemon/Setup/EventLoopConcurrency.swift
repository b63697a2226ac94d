import Logging
import NIOCore
import NIOPosix

/// Runs Swift concurrency's global jobs on the daemon's NIO event loops instead of libdispatch's
/// worker pool, through SwiftNIO's own take-over.
///
/// Why: as soon as its first pooled worker runs, libdispatch (on Linux) starts a timer that checks
/// the pool once a second, and keeps it for the life of the process: the idle daemon woke 60 times a
/// minute for it alone. An event loop sleeps in `epoll_wait` until a socket or a scheduled task
/// needs it. Jobs also stop hopping between the pool and the loop that serves their connection.
///
/// SwiftNIO finds the runtime's hook with `dlsym`. The release daemon links the Swift runtime
/// statically, whose archives are linked with their symbols hidden, so its build links the runtime's
/// own hooks object as a plain object, which exports them (scripts/swift-build-static.sh).
/// Sleeps still go through `EventLoopTimer` (a `Task.sleep` wakes on libdispatch), and blocking
/// work goes to serial Dispatch queues, whose threads the pool monitor does not watch. The daemon
/// binds no task local (`TaskLocal.withValue`): in that release build, one bound in a connection's
/// task crashed in `swift_task_localValuePush` (41e96a2), while the debug build ran it.
public enum EventLoopConcurrency {
    /// Call once, first thing in `main`, before any task exists; false when the hook was not found.
    public static func install() -> Bool {
        NIOSingletons.unsafeTryInstallSingletonPosixEventLoopGroupAsConcurrencyGlobalExecutor()
    }

    /// Says in the log when `install` could not take over (the daemon then still works, but wakes
    /// once a second while idle).
    public static func report(installed: Bool, to logger: Logger) {
        guard !installed else { return }
        logger.warning(
            "Swift concurrency could not be moved onto the event loops (the runtime's hook was not found); the idle daemon will wake once a second")
    }
}
