import OnTheMapRPC

/// `logout` (`LogoutParams`) → ends the upstream session if reachable; always forgets it locally.
enum LogoutMethod: RPCMethod {
    static func answer(_ request: LogoutParams, daemon: Daemon, connection: any ConnectionControl) async throws -> RPCResult {
        .result(await daemon.logout())
    }
}
