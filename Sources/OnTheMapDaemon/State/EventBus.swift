import Foundation
import OnTheMapModels
import OnTheMapRPC

/// Fans notifications out to subscribed connections. Actor-isolated. Each connection owns a
/// bounded stream, so a slow reader loses old notifications instead of growing the daemon.
actor EventBus {
    typealias Sink = AsyncStream<RPCNotification>.Continuation

    private var subscribers: [UUID: (events: Set<RPCEvent>, sink: Sink)] = [:]

    func subscribe(_ id: UUID, events: Set<RPCEvent>, sink: Sink) {
        subscribers[id] = (events, sink)
    }

    func unsubscribe(_ id: UUID) {
        subscribers[id] = nil
    }

    func publish(_ event: RPCEvent, _ params: WireJSON) {
        guard subscribers.values.contains(where: { $0.events.contains(event) }) else { return }
        let notification = RPCNotification(method: event.method, params: params)
        for subscriber in subscribers.values where subscriber.events.contains(event) {
            subscriber.sink.yield(notification)
        }
    }
}
