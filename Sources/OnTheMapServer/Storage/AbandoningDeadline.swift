import Foundation
import NIOConcurrencyHelpers

/// Thrown when an operation outlives its deadline.
struct DeadlineExceeded: Error {}

/// Returns an operation's result, or throws `DeadlineExceeded` once the deadline passes, even if the
/// operation ignores cancellation (it is cancelled and left to finish on its own). A task group would wait for such an operation; two
/// tasks racing to resume one continuation do not. (The API client's `CancellingDeadline` is the
/// other kind: it cancels and waits for the operation to end.)
enum AbandoningDeadline {
    static func run<T: Sendable>(
        _ timeout: Duration, _ operation: @escaping @Sendable () async throws -> T
    ) async throws -> T {
        let race = NIOLockedValueBox(Race())
        return try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<T, any Error>) in
            let work = Task {
                let result: Result<T, any Error>
                do { result = .success(try await operation()) } catch { result = .failure(error) }
                if let timer = race.withLockedValue({ $0.finish() }) {
                    timer?.cancel()
                    continuation.resume(with: result)
                }
            }
            let timer = Task {
                try? await Task.sleep(for: timeout)
                guard !Task.isCancelled, race.withLockedValue({ $0.finish() }) != nil else { return }
                work.cancel()
                continuation.resume(throwing: DeadlineExceeded())
            }
            // If the work already finished, the timer is not needed.
            if race.withLockedValue({ $0.keep(timer) }) == false { timer.cancel() }
        }
    }

    /// Who finished first, and the timer to stop when the work wins.
    private struct Race {
        var finished = false
        var timer: Task<Void, Never>?

        /// Claims the finish: nil if already claimed, else the timer (if any yet) to cancel.
        mutating func finish() -> Task<Void, Never>?? {
            guard !finished else { return nil }
            finished = true
            return .some(timer)
        }

        /// Keeps the timer; false when the race is already over.
        mutating func keep(_ timer: Task<Void, Never>) -> Bool {
            guard !finished else { return false }
            self.timer = timer
            return true
        }
    }
}
