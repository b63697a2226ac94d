import Dispatch
import NIOConcurrencyHelpers
import OnTheMapSupport

/// Clients' costly requests (a search through the list or the server's, a long page of it, a map,
/// an export): their CPU work on `Daemon.work`, in the order it comes, and their fetches of the
/// server's list at most `maximumFetches` at a time. Each connection has one request at work at a
/// time, so clients take turns, and nothing waiting holds a thread. A request whose client has closed
/// its connection is dropped when its turn comes: batches of 256 searches, sent and left by 8
/// connections, kept the worker busy for minutes. Work whose effect must outlast the client (a
/// refresh's list, a posted pin placed in it) goes to `Daemon.work` directly.
struct ClientWork: Sendable {
    /// Fetches of the server's list longer than a page (up to ten) under way at once for clients:
    /// each holds a list of up to 10,000 students while it is read.
    static let maximumFetches = 2

    /// Whether the client that asked is still connected (`ConnectionSubscription.isOpen`), given by
    /// the method's handler: not a task local, which the release daemon's statically linked runtime,
    /// running tasks on the event loops, could not push (it crashed at the first request).
    typealias ClientIsThere = @Sendable () -> Bool

    let queue: DispatchQueue
    private let fetches = NIOLockedValueBox(Turns(free: maximumFetches))

    init(on queue: DispatchQueue) { self.queue = queue }

    /// Runs `work` on the queue when its turn comes; not for a client that has gone by then.
    func perform<T: Sendable>(for clientIsThere: @escaping ClientIsThere, _ work: @escaping @Sendable () throws -> T) async throws -> T {
        try await queue.perform { () throws -> T in
            guard clientIsThere() else { throw ClientGone() }
            return try work()
        }
    }

    /// Carries out `body`, which fetches the server's list, once one of `maximumFetches` turns is
    /// free (waiting in order for one); not for a client that has gone by then.
    func fetching<T: Sendable>(for clientIsThere: ClientIsThere, _ body: () async throws -> T) async throws -> T {
        await withCheckedContinuation { (turn: CheckedContinuation<Void, Never>) in
            let now = fetches.withLockedValue { turns -> Bool in
                guard turns.free > 0 else {
                    turns.waiting.append(turn)
                    return false
                }
                turns.free -= 1
                return true
            }
            if now { turn.resume() }
        }
        defer {
            let next = fetches.withLockedValue { turns -> CheckedContinuation<Void, Never>? in
                guard !turns.waiting.isEmpty else {
                    turns.free += 1
                    return nil
                }
                return turns.waiting.removeFirst()
            }
            next?.resume()
        }
        guard clientIsThere() else { throw ClientGone() }
        return try await body()
    }

    /// The fetch turns: how many are free, and who waits for one, first come first.
    private struct Turns {
        var free: Int
        var waiting: [CheckedContinuation<Void, Never>] = []
    }

    /// The client of a request closed its connection before the request's turn.
    struct ClientGone: Error {}
}
