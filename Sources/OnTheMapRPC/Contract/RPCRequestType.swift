import OnTheMapModels

/// One method of the daemon's protocol, declared once in its own file (as sourcekit-lsp declares each
/// request): its name, its params as a typed value, and its result type. The daemon decodes the params
/// with it, `rpc.discover` describes them from it, the client encodes them with it, and a test checks
/// docs/PROTOCOL.md against it.
public protocol RPCRequestType: Sendable {
    /// What the method answers.
    associatedtype Response: Sendable

    /// The method's name on the wire.
    static var method: String { get }
    /// One line for `rpc.discover`.
    static var summary: String { get }
    /// The params, in the order clients write them.
    static var parameters: [RPCParameter] { get }

    /// Reads params that passed the name check, throwing -32602 with `data.field` for anything wrong.
    init(reading params: RPCParams) throws(RPCError)

    /// The params as a client sends them; nil for none.
    var params: WireJSON? { get }
}

extension RPCRequestType {
    /// Reads a request's params: unknown names, positional params and wrong values are -32602.
    public init(params: WireJSON?) throws(RPCError) {
        try self.init(reading: RPCParams(params, allowed: Set(Self.parameters.map(\.name))))
    }

    /// The request a client sends for these params.
    public func request(id: RPCID?) -> RPCRequest {
        RPCRequest(id: id, method: Self.method, params: params)
    }
}

/// A method that takes no params.
public protocol RPCRequestWithoutParams: RPCRequestType {
    init()
}

extension RPCRequestWithoutParams {
    public static var parameters: [RPCParameter] { [] }
    public init(reading params: RPCParams) throws(RPCError) { self.init() }
    public var params: WireJSON? { nil }
}
