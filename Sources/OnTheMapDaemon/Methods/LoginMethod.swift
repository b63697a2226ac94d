import OnTheMapRPC

/// `login` (`LoginParams`) → the account.
enum LoginMethod: RPCMethod {
    static func answer(_ request: LoginParams, daemon: Daemon, connection: any ConnectionControl) async throws -> RPCResult {
        .result(try await daemon.login(request))
    }
}
