import FoundationEssentials
import NIOConcurrencyHelpers
import OnTheMapRPC

/// One client connection's subscription: its place in `Subscribers`, and whether the idle timeout
/// spares it (a status bar waiting for notifications is not idle).
struct ConnectionSubscription: Sendable {
    private let id = UUID()
    let subscribers: Subscribers
    let sink: Subscribers.Sink
    let idleCloser: IdleCloser
    /// Whether the client is still connected (its channel open): a client that closed the
    /// connection, not only its sending side, is gone.
    let isOpen: @Sendable () -> Bool

    func subscribe(_ events: Set<RPCEvent>) {
        idleCloser.subscribed.withLockedValue { $0 = true }
        subscribers.subscribe(id, events: events, sink: sink)
    }

    func unsubscribe() {
        idleCloser.subscribed.withLockedValue { $0 = false }
        subscribers.unsubscribe(id)
    }

    /// The connection is closing: no more notifications.
    func close() {
        subscribers.unsubscribe(id)
        sink.finish()
    }
}
