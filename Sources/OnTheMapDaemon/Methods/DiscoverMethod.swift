import OnTheMapModels
import OnTheMapRPC

/// `rpc.discover` → an OpenRPC document of every method.
enum DiscoverMethod: RPCMethod {
    static let name = "rpc.discover"
    static let summary = "This OpenRPC document."
    static let params: [(String, String, Bool, String)] = []

    static func handle(_ params: WireJSON?, daemon: Daemon, connection: any ConnectionControl) async throws -> RPCResult {
        .serialized(document)
    }

    static let document: String = WireJSON.object([
        ("openrpc", .string("1.2.6")),
        ("info", .object([("title", .string("onthemapd")), ("version", .string(Daemon.version))])),
        ("methods", .array(MethodRegistry.methods.map { method in
            .object([
                ("name", .string(method.name)),
                ("summary", .string(method.summary)),
                ("paramStructure", .string("by-name")),
                ("params", .array(method.params.map { param in
                    .object([
                        ("name", .string(param.0)), ("required", .bool(param.2)), ("description", .string(param.3)),
                        ("schema", .object([("type", .string(param.1))])),
                    ])
                })),
                ("result", .object([("name", .string(method.name + "Result")), ("schema", .object([("type", .string("object"))]))])),
            ])
        })),
    ]).serialized
}
