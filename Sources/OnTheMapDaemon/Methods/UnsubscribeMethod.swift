import OnTheMapRPC

/// `unsubscribe` (`UnsubscribeParams`): stops notifications on this connection.
enum UnsubscribeMethod: RPCMethod {
    static func answer(_ request: UnsubscribeParams, daemon: Daemon, connection: any ConnectionControl) async throws -> RPCResult {
        connection.unsubscribe()
        return .result(SubscribeResult(events: []))
    }
}
