import CMemory
import Foundation
import OnTheMapModels
import Synchronization

/// Gives memory back to the kernel: after bursts of connections, and whenever the daemon falls quiet.
///
/// Each connection allocates buffers on an event-loop thread; glibc keeps what they free in its
/// per-thread arenas, so RSS stayed ~15 MiB higher after 1,000 connections came and went, for
/// good. Two arenas instead of one per thread, and a `malloc_trim` once the daemon is left with no
/// clients after many, give most of it back, and a second burst adds nothing (docs/benchmarks.md).
///
/// Busy, the daemon also maps the pages of code it runs (the kernel maps 64 KiB around each page
/// touched): ~25 MiB of its executable and libraries stayed mapped long after the last request. A
/// quiet period (no request for 30 s) ends with `releaseIdleMemory`, and so does each refresh of a
/// daemon left quiet since, so the idle daemon holds little beyond its own memory; the next request
/// maps the code it runs again.
public final class MemoryTrimmer: Sendable {
    /// Runs `work` after a delay; the tests pass one they step by hand.
    typealias Scheduler = @Sendable (Duration, @escaping @Sendable () -> Void) -> Void

    /// Connections closed since the last trim; below this, trimming is not worth its time.
    static let closedConnectionsBeforeTrim = 64
    /// How long without activity counts as quiet. A status bar polling every few seconds keeps the
    /// daemon warm; the request of one polling every minute maps the code it runs again: minor page
    /// faults where the page cache kept the executable, a read from disk where it did not
    /// (Benchmarks/analysis.md: 0.15 ms warm, 4.5–13 ms on a VM that keeps little page cache).
    static let defaultQuietPeriod: Duration = .seconds(30)

    private let closedSinceTrim = Atomic<Int>(0)
    /// Requests so far; a quiet period is one in which this does not move.
    private let activity = Atomic<Int>(0)
    /// Whether a check for quiet is scheduled: at most one is, however busy the daemon.
    private let quietCheckScheduled = Atomic<Bool>(false)
    /// Whether the last quiet period ended in a release and no request has come since.
    private let released = Atomic<Bool>(false)
    private let quietPeriod: Duration
    private let releaseWhenQuiet: @Sendable () -> Void
    private let schedule: Scheduler

    /// - Parameters:
    ///   - quietPeriod: no activity for at least this long, and at most twice as long, releases.
    ///   - releaseWhenQuiet: what a quiet period ends with; the daemon drops the geocoder's index, then
    ///     calls `releaseIdleMemory`.
    init(
        quietPeriod: Duration = defaultQuietPeriod, releaseWhenQuiet: @escaping @Sendable () -> Void,
        schedule: @escaping Scheduler = MemoryTrimmer.onTrimmingQueue
    ) {
        self.quietPeriod = quietPeriod
        self.releaseWhenQuiet = releaseWhenQuiet
        self.schedule = schedule
    }

    /// Call once, before any thread exists: two arenas, and a fixed threshold for mapping large
    /// blocks on their own (see `onthemap_map_large_blocks`).
    public static func tuneAllocator() {
        onthemap_tune_malloc(2)
    }

    /// Records a closed connection; trims when none are left open after many closed.
    func connectionClosed(openConnectionsLeft: Int) {
        let closed = closedSinceTrim.add(1, ordering: .relaxed).newValue
        guard openConnectionsLeft == 0, closed >= Self.closedConnectionsBeforeTrim else { return }
        closedSinceTrim.store(0, ordering: .relaxed)
        // A moment later: the connections' tasks free their last buffers after the close.
        schedule(.seconds(1)) { onthemap_malloc_trim() }
    }

    /// Records a request read (or start-up). Cheap enough for every request: an atomic add and two
    /// loads, and a timer only when none is pending.
    func noteActivity() {
        activity.add(1, ordering: .sequentiallyConsistent)
        if released.load(ordering: .relaxed) { released.store(false, ordering: .relaxed) }
        guard !quietCheckScheduled.load(ordering: .sequentiallyConsistent) else { return }
        scheduleCheckIfNoneIs()
    }

    /// One wake-up per quiet period while busy, none once released: the idle daemon stays asleep.
    private func scheduleCheckIfNoneIs() {
        guard quietCheckScheduled.compareExchange(expected: false, desired: true, ordering: .sequentiallyConsistent)
            .exchanged
        else { return }
        let seen = activity.load(ordering: .sequentiallyConsistent)
        schedule(quietPeriod) { [self] in
            // Cleared before activity is read again: an activity after that read finds no check
            // pending and schedules its own, so none is left mapped until the next one.
            quietCheckScheduled.store(false, ordering: .sequentiallyConsistent)
            if activity.load(ordering: .sequentiallyConsistent) == seen {
                released.store(true, ordering: .relaxed)
                releaseWhenQuiet()
            } else {
                scheduleCheckIfNoneIs()
            }
        }
    }

    /// Records background work done (a refresh). On a daemon that was released and has had no request
    /// since, it releases again at once: what the work mapped is not kept for a quiet period no client
    /// would notice (a refresh every 5 minutes kept ~12 MiB of code mapped for up to a minute each
    /// time). Otherwise the pending check for quiet covers it.
    func backgroundWorkDone() {
        guard released.load(ordering: .relaxed) else { return }
        schedule(.zero) { [self] in
            if released.load(ordering: .relaxed) { releaseWhenQuiet() }
        }
    }

    /// Trims the allocator, drops the mapped pages of code and read-only data, then the pages of the
    /// executable nobody maps from the page cache: what the daemon can give back between requests
    /// without losing anything. The next request reads the code it runs from disk where the kernel
    /// let it go (Benchmarks/analysis.md: the first request after a quiet period).
    static func releaseIdleMemory() {
        onthemap_malloc_trim()
        if releaseReadOnlySegments() > 0 { onthemap_drop_executable_page_cache() }
    }

    /// Drops this process's mappings of the executable's and the shared libraries' read-only
    /// segments (see `onthemap_release_readonly_segments`) and returns how many bytes they span. Not
    /// under a debugger: its breakpoints are written to private copies of code pages, which this
    /// would drop.
    @discardableResult
    static func releaseReadOnlySegments() -> Int {
        guard !isTraced() else { return 0 }
        return onthemap_release_readonly_segments()
    }

    private static func isTraced() -> Bool {
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return true }
        return !status.split(separator: "\n").contains { $0.hasPrefix("TracerPid:") && $0.hasSuffix("\t0") }
    }

    /// Off the event loops (a trim walks every arena), on a serial queue (see `DispatchQueue.perform`).
    private static let trimmingQueue = DispatchQueue(label: "onthemap.memory-trim")

    static func onTrimmingQueue(after delay: Duration, _ work: @escaping @Sendable () -> Void) {
        trimmingQueue.asyncAfter(deadline: .now() + delay.seconds, execute: work)
    }
}
