import Synchronization

/// How many requests of a connection were read and are not answered yet: a connection waiting for
/// an answer is not idle (`IdleCloser`). Counted up as a frame passes the idle closer, down once the
/// connection's task has answered it.
final class PendingRequests: Sendable {
    private let count = Atomic<Int>(0)

    func begin() { count.add(1, ordering: .relaxed) }
    func end() { count.subtract(1, ordering: .releasing) }
    var isEmpty: Bool { count.load(ordering: .acquiring) == 0 }
}
