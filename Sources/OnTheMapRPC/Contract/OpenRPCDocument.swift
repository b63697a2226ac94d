import OnTheMapModels

/// The OpenRPC document `rpc.discover` answers, built from the methods' declarations.
public enum OpenRPCDocument {
    /// The document for `methods`.
    public static func document(version: String, methods: [any RPCRequestType.Type]) -> WireJSON {
        WireJSON.object([
            ("openrpc", .string("1.2.6")),
            ("info", .object([("title", .string("onthemapd")), ("version", .string(version))])),
            ("methods", .array(methods.map(describe))),
        ])
    }

    private static func describe(_ method: any RPCRequestType.Type) -> WireJSON {
        .object([
            ("name", .string(method.method)),
            ("summary", .string(method.summary)),
            ("paramStructure", .string("by-name")),
            ("params", .array(method.parameters.map { param in
                .object([
                    ("name", .string(param.name)), ("required", .bool(param.required)), ("description", .string(param.summary)),
                    ("schema", .object([("type", .string(param.kind.rawValue))])),
                ])
            })),
            ("result", .object([("name", .string(method.method + "Result")), ("schema", .object([("type", .string("object"))]))])),
        ])
    }
}
