import CMemory
import Dispatch
import FoundationEssentials
import Glibc
import OnTheMapGeocoder
import OnTheMapModels
import Synchronization

/// Gives memory back to the kernel after bursts of connections, and drops the offline geocoder's
/// index once it has gone unused for a while.
///
/// Each connection allocates buffers on an event-loop thread; glibc keeps what they free in its
/// per-thread arenas, so RSS stayed ~15 MiB higher after 1,000 connections came and went, for
/// good. One arena (the main one) instead of one per thread, and a `malloc_trim` once the daemon is
/// left with no clients after many, give most of it back, and a second burst adds nothing
/// (docs/benchmarks.md). Threads still keep small blocks in their own caches (tcache), so they
/// seldom wait for the arena's lock.
///
/// The geocoder's index (15–17 MiB) is built on first use; a pin is posted now and then, so it is
/// dropped (and the allocator trimmed) once no geocode has asked for it for `geocoderIdlePeriod`.
public final class MemoryTrimmer: Sendable {
    /// Runs `work` after a delay; the tests pass one they step by hand.
    typealias Scheduler = @Sendable (Duration, @escaping @Sendable () -> Void) -> Void

    /// Connections closed since the last trim; below this, trimming is not worth its time.
    static let closedConnectionsBeforeTrim = 64
    static let defaultGeocoderIdlePeriod: Duration = .seconds(30)

    private let closedSinceTrim = Atomic<Int>(0)
    /// Geocodes so far; an idle period is one in which this does not move.
    private let geocodes = Atomic<Int>(0)
    /// Whether a check is scheduled: at most one is.
    private let checkScheduled = Atomic<Bool>(false)
    /// Whether a trim after a server list let go is scheduled: at most one is.
    private let trimScheduled = Atomic<Bool>(false)
    private let geocoderIdlePeriod: Duration
    private let dropGeocoder: @Sendable () -> Void
    private let schedule: Scheduler

    init(
        geocoderIdlePeriod: Duration = defaultGeocoderIdlePeriod,
        dropGeocoder: @escaping @Sendable () -> Void = { OfflineGeocoder.unload() },
        schedule: @escaping Scheduler = MemoryTrimmer.onTrimmingQueue
    ) {
        self.geocoderIdlePeriod = geocoderIdlePeriod
        self.dropGeocoder = dropGeocoder
        self.schedule = schedule
    }

    /// Call once, before any thread exists: one arena (see `onthemap_tune_malloc`). Not two: the
    /// index is built on a Dispatch thread, and in a second arena its memory, freed, joined that
    /// arena's top, which `malloc_trim` gives back only in the main arena (the index's 22 MiB stayed:
    /// 25,152 KiB anonymous a minute after the drop, 3,384 KiB with one arena).
    public static func tuneAllocator() {
        onthemap_tune_malloc(1)
    }

    /// Records a closed connection; trims when none are left open after many closed.
    func connectionClosed(openConnectionsLeft: Int) {
        let closed = closedSinceTrim.add(1, ordering: .relaxed).newValue
        guard openConnectionsLeft == 0, closed >= Self.closedConnectionsBeforeTrim else { return }
        closedSinceTrim.store(0, ordering: .relaxed)
        // A moment later: the connections' tasks free their last buffers after the close.
        schedule(.seconds(1)) { onthemap_malloc_trim() }
    }

    /// Records that a list fetched from the server for one answer was let go (`students` beyond the
    /// cache: up to 10,000 students decoded, answered or failed halfway): a trim a moment later, as
    /// after a burst of connections. Without it the ~12 MiB such an answer had used stayed with the
    /// daemon until 64 more connections had closed (docs/benchmarks.md, Memory). One trim is pending
    /// at a time; one let go while it is pending is trimmed by it, a second later at most.
    func serverListReleased() {
        guard trimScheduled.compareExchange(expected: false, desired: true, ordering: .sequentiallyConsistent).exchanged
        else { return }
        schedule(.seconds(1)) { [self] in
            trimScheduled.store(false, ordering: .sequentiallyConsistent)
            onthemap_malloc_trim()
        }
    }

    /// Records a geocode: the index is dropped once `geocoderIdlePeriod` passes without another.
    func geocoderUsed() {
        geocodes.add(1, ordering: .sequentiallyConsistent)
        scheduleCheckIfNoneIs()
    }

    private func scheduleCheckIfNoneIs() {
        guard checkScheduled.compareExchange(expected: false, desired: true, ordering: .sequentiallyConsistent).exchanged
        else { return }
        let seen = geocodes.load(ordering: .sequentiallyConsistent)
        schedule(geocoderIdlePeriod) { [self] in
            // Cleared before the count is read again: a geocode after that read finds no check
            // pending and schedules its own.
            checkScheduled.store(false, ordering: .sequentiallyConsistent)
            if geocodes.load(ordering: .sequentiallyConsistent) == seen {
                dropGeocoder()
                onthemap_malloc_trim()
            } else {
                scheduleCheckIfNoneIs()
            }
        }
    }

    /// Off the event loops (a trim walks every arena), on a serial queue (see `DispatchQueue.perform`).
    private static let trimmingQueue = DispatchQueue(label: "onthemap.memory-trim")

    static func onTrimmingQueue(after delay: Duration, _ work: @escaping @Sendable () -> Void) {
        trimmingQueue.asyncAfter(deadline: .now() + delay.seconds, execute: work)
    }
}
