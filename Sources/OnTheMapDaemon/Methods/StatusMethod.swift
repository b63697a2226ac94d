import OnTheMapRPC

/// `status` (`StatusParams`): answered from the stored answer, with the uptime as of now.
enum StatusMethod: RPCMethod {
    static func answer(_ request: StatusParams, daemon: Daemon, connection: any ConnectionControl) async throws -> RPCResult {
        .serialized(await daemon.statusResult())
    }
}
