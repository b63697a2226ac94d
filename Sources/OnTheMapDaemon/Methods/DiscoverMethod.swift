import OnTheMapRPC

/// `rpc.discover` (`DiscoverParams`) → an OpenRPC document of every method the daemon serves.
enum DiscoverMethod: RPCMethod {
    static func answer(_ request: DiscoverParams, daemon: Daemon, connection: any ConnectionControl) async throws -> RPCResult {
        .result(document)
    }

    static let document = OpenRPCDocument.document(version: Daemon.version, methods: MethodRegistry.methods.map { $0.declaration })
}
