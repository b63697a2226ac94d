import OnTheMapRPC

/// `rpc.discover` (`DiscoverParams`) → an OpenRPC document of every method the daemon serves.
enum DiscoverMethod: RPCMethod {
    static func answer(_ request: DiscoverParams, daemon: Daemon, connection: any ConnectionControl) async throws -> RPCResult {
        .bytes(Array(document.utf8))
    }

    static let document = OpenRPCDocument.serialized(version: Daemon.version, methods: MethodRegistry.methods.map { $0.declaration })
}
