import FoundationEssentials
import OnTheMapModels
import OnTheMapRPC
import Synchronization

/// The connections subscribed to notifications, and which each asked for. Each connection owns a
/// bounded stream, so a slow reader loses old notifications instead of growing the daemon.
/// Mutex-protected.
final class Subscribers: Sendable {
    typealias Sink = AsyncStream<RPCNotification>.Continuation

    private let table = Mutex<[UUID: (events: Set<RPCEvent>, sink: Sink)]>([:])

    func subscribe(_ id: UUID, events: Set<RPCEvent>, sink: Sink) {
        table.withLock { $0[id] = (events, sink) }
    }

    func unsubscribe(_ id: UUID) {
        _ = table.withLock { $0.removeValue(forKey: id) }
    }

    func publish(_ event: RPCEvent, _ params: some Encodable & Sendable) {
        let sinks = table.withLock { $0.values.filter { $0.events.contains(event) }.map(\.sink) }
        guard !sinks.isEmpty else { return }
        let notification = RPCNotification(method: event.method, params: params)
        for sink in sinks { sink.yield(notification) }
    }
}
