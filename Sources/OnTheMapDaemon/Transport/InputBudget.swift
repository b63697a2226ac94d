import Synchronization

/// A cap on the unfinished input the daemon holds across all its connections: 500 clients each
/// holding most of a 1 MiB line once took it to 579 MB.
///
/// A connection holds up to `freePerConnection` bytes of an unfinished message for nothing (every
/// ordinary request fits); beyond that it draws on one shared pool, and a connection the pool cannot
/// serve is answered with an error and closed. Lock-free (an atomic counter).
final class InputBudget: Sendable {
    /// What one connection may hold without drawing on the pool.
    static let freePerConnection = 16 * 1024
    /// The pool shared by every connection.
    let capacity: Int
    private let used = Atomic<Int>(0)

    init(capacity: Int = 32 * 1024 * 1024) {
        self.capacity = capacity
    }

    /// Changes a connection's draw from `old` to `new` bytes. Returns false, changing nothing, when
    /// the pool cannot grant the increase.
    func redraw(from old: Int, to new: Int) -> Bool {
        let delta = new - old
        if delta <= 0 {
            used.subtract(-delta, ordering: .relaxed)
            return true
        }
        if used.add(delta, ordering: .relaxed).newValue > capacity {
            used.subtract(delta, ordering: .relaxed)
            return false
        }
        return true
    }

    /// What a connection holding `bytes` of unfinished input draws from the pool.
    static func draw(forHolding bytes: Int) -> Int { max(0, bytes - freePerConnection) }
}
