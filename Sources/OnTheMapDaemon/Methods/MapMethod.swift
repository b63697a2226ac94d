import OnTheMapRPC

/// `map` (`MapParams`) → the world with the cached students' pins, drawn in terminal cells.
enum MapMethod: RPCMethod {
    static func answer(_ request: MapParams, daemon: Daemon, connection: any ConnectionControl) async throws -> RPCResult {
        .bytes(try await daemon.map(request).serializedBytes)
    }
}
