import OnTheMapRPC

/// `status` (`StatusParams`): what the daemon knows now.
enum StatusMethod: RPCMethod {
    static func answer(_ request: StatusParams, daemon: Daemon, connection: any ConnectionControl) async throws -> RPCResult {
        .result(await daemon.status())
    }
}
