import OnTheMapRPC

/// `subscribe` (`SubscribeParams`): the connection then receives the chosen notifications.
enum SubscribeMethod: RPCMethod {
    static func answer(_ request: SubscribeParams, daemon: Daemon, connection: any ConnectionControl) async throws -> RPCResult {
        let events = Set(request.events ?? RPCEvent.allCases)
        connection.subscribe(events)
        return .result(SubscribeResult(events: events))
    }
}
