import Foundation

/// Polls `condition` every 50 ms until it holds (true) or `timeout` passes (false): tests wait on a
/// condition, never on a fixed sleep.
public func eventually(timeout: Duration = .seconds(15), _ condition: () throws -> Bool) rethrows -> Bool {
    let deadline = ContinuousClock.now + timeout
    while ContinuousClock.now < deadline {
        if try condition() { return true }
        usleep(50_000)
    }
    return false
}

/// The same, for a condition that awaits (an HTTP request); sleeps without blocking a thread.
public func eventually(timeout: Duration = .seconds(15), _ condition: () async throws -> Bool) async rethrows -> Bool {
    let deadline = ContinuousClock.now + timeout
    while ContinuousClock.now < deadline {
        if try await condition() { return true }
        try? await Task.sleep(for: .milliseconds(50))
    }
    return false
}
