/// What the daemon is doing right now, for `status.busy`. Actor-isolated counters.
actor BusyTracker {
    private var running: [String: Int] = [:]
    /// Called whenever the list of activities changes.
    private let onChange: @Sendable () -> Void

    init(onChange: @escaping @Sendable () -> Void = {}) {
        self.onChange = onChange
    }

    /// Runs `body`, listing `activity` as busy meanwhile.
    func track<T: Sendable>(_ activity: String, _ body: @Sendable () async throws -> T) async rethrows -> T {
        running[activity, default: 0] += 1
        onChange()
        defer {
            running[activity, default: 1] -= 1
            if running[activity] == 0 { running[activity] = nil }
            onChange()
        }
        return try await body()
    }

    var activities: [String] { running.keys.sorted() }
}
