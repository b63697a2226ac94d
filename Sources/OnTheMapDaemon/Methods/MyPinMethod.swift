import OnTheMapRPC

/// `myPin` (`MyPinParams`) → the user's newest pin upstream (or as last known, when the upstream
/// cannot be reached), or null.
enum MyPinMethod: RPCMethod {
    static func answer(_ request: MyPinParams, daemon: Daemon, connection: any ConnectionControl) async throws -> RPCResult {
        .result(try await daemon.myPin())
    }
}
