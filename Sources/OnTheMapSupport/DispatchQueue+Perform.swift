import Dispatch

extension DispatchQueue {
    /// Runs `work` on this queue and returns what it returns (or throws).
    ///
    /// For work that computes or blocks for a while (loading the gazetteer, drawing a map, an
    /// fsync): awaited here, it holds none of the few threads Swift concurrency runs every actor and
    /// task on. Call it on a serial queue of your own, not a global one: a serial queue's thread
    /// comes from libdispatch's overcommit pool, which (unlike the global queues) starts no pool
    /// monitor that would wake an idle process every second for the rest of its life.
    ///
    /// Runs on the caller's executor up to the hand-over (`nonisolated(nonsending)`), so work asked
    /// for in a given order from one actor reaches the queue in that order.
    nonisolated(nonsending) package func perform<T: Sendable, Failure: Error>(_ work: @escaping @Sendable () throws(Failure) -> T)
        async throws(Failure) -> T
    {
        let result: Result<T, Failure> = await withCheckedContinuation { continuation in
            self.async { continuation.resume(returning: Result(catching: work)) }
        }
        return try result.get()
    }
}
