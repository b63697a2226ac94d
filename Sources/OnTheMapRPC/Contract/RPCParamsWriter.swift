import OnTheMapModels

/// Named params as a client writes them: in the order written, absent values left out.
public struct RPCParamsWriter: Sendable {
    private var members: [(String, WireJSON)] = []

    /// Starts with no params.
    public init() {}

    /// Adds `value` under the param's name, unless it is nil.
    public mutating func add<Value>(_ param: RPCParam<Value>, _ value: Value?) {
        guard let value else { return }
        members.append((param.name, param.write(value)))
    }

    /// The params object; nil when there are none, so the request carries no `params` at all.
    public var params: WireJSON? { members.isEmpty ? nil : .object(members) }
}
