import OnTheMapRPC

/// `status` (`StatusParams`): the answer prepared for the newest state, with the uptime as of now.
enum StatusMethod: RPCMethod {
    static func answer(_ request: StatusParams, daemon: Daemon, connection: any ConnectionControl) async throws -> RPCResult {
        .buffer(await daemon.status())
    }
}
