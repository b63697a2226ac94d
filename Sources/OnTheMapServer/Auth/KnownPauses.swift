import Foundation
import OnTheMapModels
import NIOConcurrencyHelpers

/// The attempt counts in the database, with the pauses they imposed remembered in memory: an attempt
/// at a subject already known to be paused is refused here, without a trip to the database and
/// without a write.
///
/// Counting every refused attempt wrote to the database once a request: a flood of refused place
/// lookups grew the WAL from 45 KB to 4.1 MB in 20 s. Counting stays in the database (so replicas
/// share it); only the refusals it decided are kept here, until their window ends. A refused
/// attempt is therefore counted against nothing, as the database already refuses to count one
/// against the account's hour when its minute's pause refused it.
struct KnownPauses: LoginAttemptStore {
    /// Pauses remembered at most; beyond it the expired ones are dropped, or, if none has expired,
    /// all (the database still holds every count, and tells each pause again).
    static let capacity = 50_000

    let store: any LoginAttemptStore
    /// When each paused subject's window ends, and when it began; guarded, held only to look up or note.
    private let pauses = NIOLockedValueBox<[String: (start: Date, end: Date)]>([:])

    init(store: any LoginAttemptStore) {
        self.store = store
    }

    func countAttempts(_ counters: [AttemptCounter], now: Date) async throws -> [AttemptTally] {
        if let refused = refusal(counters, now: now) { return refused }
        let tallies = try await store.countAttempts(counters, now: now)
        for (counter, tally) in zip(counters, tallies) where tally.attempts > counter.limit {
            note(counter.subject, start: tally.windowStart, end: tally.windowStart.addingTimeInterval(counter.window.seconds), now: now)
        }
        return tallies
    }

    /// The tallies the database would answer if `counters` meet a known pause: none counted before
    /// it, and the paused one over its limit since its window began.
    private func refusal(_ counters: [AttemptCounter], now: Date) -> [AttemptTally]? {
        pauses.withLockedValue { pauses in
            guard let index = counters.firstIndex(where: { (pauses[$0.subject]?.end ?? .distantPast) > now }) else {
                return nil
            }
            let start = pauses[counters[index].subject]!.start
            return counters[..<index].map { _ in AttemptTally(attempts: 0, windowStart: now) }
                + [AttemptTally(attempts: counters[index].limit + 1, windowStart: start)]
        }
    }

    private func note(_ subject: String, start: Date, end: Date, now: Date) {
        pauses.withLockedValue { pauses in
            if pauses.count >= Self.capacity { pauses = pauses.filter { $0.value.end > now } }
            if pauses.count >= Self.capacity { pauses.removeAll() }
            pauses[subject] = (start, end)
        }
    }
}
