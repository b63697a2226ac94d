import OnTheMapRPC

/// Per-connection state a method may touch (subscriptions).
protocol ConnectionControl: Sendable {
    func subscribe(_ events: Set<RPCEvent>) async
    func unsubscribe() async
}
