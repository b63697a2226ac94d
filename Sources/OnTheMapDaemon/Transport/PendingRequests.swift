import Synchronization

/// How many requests of a connection went down the ordinary path and are not answered yet. The fast
/// path answers only when none are, so replies keep the order of the requests.
final class PendingRequests: Sendable {
    private let count = Atomic<Int>(0)

    func begin() { count.add(1, ordering: .relaxed) }
    func end() { count.subtract(1, ordering: .releasing) }
    var isEmpty: Bool { count.load(ordering: .acquiring) == 0 }
}
