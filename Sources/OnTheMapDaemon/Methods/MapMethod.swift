import OnTheMapRPC

/// `map` (`MapParams`) → the cached students drawn on the world map.
enum MapMethod: RPCMethod {
    static func answer(_ request: MapParams, daemon: Daemon, connection: any ConnectionControl) async throws -> RPCResult {
        try await daemon.map(request)
    }
}
