import OnTheMapRPC

/// `myPin` (`MyPinParams`) → the user's newest pin upstream, or null.
enum MyPinMethod: RPCMethod {
    static func answer(_ request: MyPinParams, daemon: Daemon, connection: any ConnectionControl) async throws -> RPCResult {
        .value(MyPinResult(pin: try await daemon.myPin()).wireJSON)
    }
}
