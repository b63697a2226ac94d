import OnTheMapRPC

/// `postPin` (`PostPinParams`) → `{pin, created}`.
enum PostPinMethod: RPCMethod {
    static func answer(_ request: PostPinParams, daemon: Daemon, connection: any ConnectionControl) async throws -> RPCResult {
        .result(try await daemon.postPin(request))
    }
}
