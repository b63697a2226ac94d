import OnTheMapModels

/// `rpc.discover` → an OpenRPC document of every method (`OpenRPCDocument`).
public struct DiscoverParams: RPCRequestWithoutParams, Equatable {
    public typealias Response = WireJSON
    public static let method = "rpc.discover"
    public static let summary = "This OpenRPC document."

    public init() {}
}
