/// Runs an operation with a time limit on the whole of it: past the limit the operation is
/// cancelled and awaited, so nothing of it runs on after the caller gets `Exceeded` (the server's
/// storage deadline, `AbandoningDeadline`, abandons an operation instead).
enum CancellingDeadline {
    /// The operation ran past its limit and was cancelled.
    struct Exceeded: Error, CustomStringConvertible {
        var limit: Duration
        var description: String { "no complete answer within \(limit)" }
    }

    /// Returns `operation`'s result, or cancels it and throws `Exceeded` once `limit` has passed.
    static func within<T: Sendable>(
        _ limit: Duration, _ operation: @escaping @Sendable () async throws -> T
    ) async throws -> T {
        try await withThrowingTaskGroup(of: T?.self) { group in
            group.addTask { try await operation() }
            group.addTask {
                try await EventLoopTimer.sleep(for: limit)
                return nil
            }
            defer { group.cancelAll() }
            guard let first = try await group.next(), let value = first else { throw Exceeded(limit: limit) }
            return value
        }
    }
}
