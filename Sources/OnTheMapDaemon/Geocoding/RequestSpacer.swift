import OnTheMapAPI

/// Runs requests one at a time, each starting at least `interval` after the previous one ended,
/// so the server sees at most one request per interval however many callers wait and however long
/// a connection takes to open.
actor RequestSpacer {
    private let interval: Duration
    private var tail: Task<Void, Never>?
    private var lastFinished: ContinuousClock.Instant?

    init(interval: Duration) {
        self.interval = interval
    }

    func run<T: Sendable>(_ body: @escaping @Sendable () async throws -> T) async throws -> T {
        let previous = tail
        let interval = interval
        // The task inherits this actor's isolation (it captures `self`), so it reads and writes the
        // actor's state without `await`; it gives the actor up only while it waits.
        let task = Task<T, any Error> {
            await previous?.value
            if let last = self.lastFinished {
                try await EventLoopTimer.sleep(for: last + interval - .now)
            }
            let result = await Result { try await body() }
            self.markFinished()
            return try result.get()
        }
        tail = Task { _ = await task.result }
        return try await task.value
    }

    private func markFinished() {
        lastFinished = .now
    }
}

extension Result where Failure == any Error {
    fileprivate init(catching body: () async throws -> Success) async {
        do { self = .success(try await body()) } catch { self = .failure(error) }
    }
}
