import OnTheMapRPC

/// `login` (`LoginParams`) → the account.
enum LoginMethod: RPCMethod {
    static func answer(_ request: LoginParams, daemon: Daemon, connection: any ConnectionControl) async throws -> RPCResult {
        .value(try await daemon.login(request.credentials).wireJSON)
    }
}
