import OnTheMapRPC

/// `geocode` (`GeocodeParams`) → candidate places. Needs no login.
enum GeocodeMethod: RPCMethod {
    static func answer(_ request: GeocodeParams, daemon: Daemon, connection: any ConnectionControl) async throws -> RPCResult {
        .result(try await daemon.geocode(request))
    }
}
