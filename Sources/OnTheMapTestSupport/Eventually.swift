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
