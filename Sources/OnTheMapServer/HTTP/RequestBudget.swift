import CMemory
import Dispatch
import Synchronization

/// The server-wide bounds on what unfinished requests may hold: how many connections are open, and
/// how many bytes of request heads and bodies are held across all of them until each is answered.
///
/// Without them memory had no bound but the descriptor limit: connections that each sent 65,000 of
/// an announced 65,536 body bytes and stopped held ~136 KiB each (825 MiB at 6,000), and kept it
/// after they closed. Each connection's `RequestBudgetHandler` reserves a request's head and its
/// announced body here before passing it on; a request that does not fit is answered 503 at once and
/// its connection closed, and a connection beyond the cap is told so and closed. The glibc heap the
/// connections grew is trimmed once most of them have gone.
final class RequestBudget: Sendable {
    /// The defaults of `serve --max-connections` and `--max-request-memory` (MiB).
    static let defaultMaxConnections = 10_000
    static let defaultMaxRequestMemoryMiB = 64

    let maxConnections: Int
    let maxHeldBytes: Int
    private let open = Atomic<Int>(0)
    private let held = Atomic<Int>(0)
    /// Connections closed since the heap was last trimmed, and the most open at once meanwhile.
    private let closedSinceTrim = Atomic<Int>(0)
    private let peakSinceTrim = Atomic<Int>(0)
    private let trimScheduled = Atomic<Bool>(false)
    /// When a connection last closed (`DispatchTime` nanoseconds).
    private let lastClose = Atomic<UInt64>(0)

    init(maxConnections: Int, maxHeldBytes: Int) {
        self.maxConnections = maxConnections
        self.maxHeldBytes = maxHeldBytes
    }

    /// Bytes held for unfinished requests now.
    var heldBytes: Int { held.load(ordering: .relaxed) }
    /// Connections open now.
    var openConnections: Int { open.load(ordering: .relaxed) }

    /// Counts a new connection; false when it is one too many (it must be closed, and `closed()`
    /// called for it all the same).
    func opened() -> Bool {
        let now = open.add(1, ordering: .relaxed).newValue
        var peak = peakSinceTrim.load(ordering: .relaxed)
        while now > peak {
            let (exchanged, original) = peakSinceTrim.compareExchange(expected: peak, desired: now, ordering: .relaxed)
            if exchanged { break }
            peak = original
        }
        return now <= maxConnections
    }

    /// A connection closed; trims the heap once a burst of connections has mostly gone and stopped
    /// closing.
    func closed() {
        let left = open.subtract(1, ordering: .relaxed).newValue
        let closed = closedSinceTrim.add(1, ordering: .relaxed).newValue
        lastClose.store(DispatchTime.now().uptimeNanoseconds, ordering: .relaxed)
        guard closed >= Self.closedBeforeTrim, left <= peakSinceTrim.load(ordering: .relaxed) / 4,
            trimScheduled.compareExchange(expected: false, desired: true, ordering: .relaxed).exchanged
        else { return }
        trimWhenQuiet(armed: DispatchTime.now())
    }

    /// Trims once no connection has closed for `quietBeforeTrim` (the closed connections' tasks have
    /// freed their last buffers by then), or `longestTrimWait` after the burst had mostly gone,
    /// whichever comes first. Off the event loops: a trim walks every arena.
    ///
    /// Not a fixed second after most had gone: the rest of the burst may still be closing then (for
    /// seconds on a busy machine), and too few of them close afterwards to start another trim, so
    /// what they held stayed in the heap.
    private func trimWhenQuiet(armed: DispatchTime) {
        let quietSince = DispatchTime(uptimeNanoseconds: lastClose.load(ordering: .relaxed))
        let quietEnds = quietSince + Self.quietBeforeTrim
        if quietEnds > DispatchTime.now(), armed + Self.longestTrimWait > DispatchTime.now() {
            DispatchQueue.global().asyncAfter(deadline: quietEnds) { self.trimWhenQuiet(armed: armed) }
            return
        }
        closedSinceTrim.store(0, ordering: .relaxed)
        peakSinceTrim.store(open.load(ordering: .relaxed), ordering: .relaxed)
        onthemap_malloc_trim()
        trimScheduled.store(false, ordering: .relaxed)
    }

    /// Connections closed before a trim is worth its time (it walks the whole heap).
    static let closedBeforeTrim = 256
    /// How long the closing must have stopped before the trim, and how long it may be put off.
    static let quietBeforeTrim = DispatchTimeInterval.seconds(1)
    static let longestTrimWait = DispatchTimeInterval.seconds(10)

    /// Reserves `bytes` for a request; false if they do not fit.
    func reserve(_ bytes: Int) -> Bool {
        let now = held.add(bytes, ordering: .relaxed).newValue
        guard now <= maxHeldBytes else {
            held.subtract(bytes, ordering: .relaxed)
            return false
        }
        return true
    }

    /// Gives back what `reserve` took.
    func release(_ bytes: Int) {
        if bytes > 0 { held.subtract(bytes, ordering: .relaxed) }
    }
}
