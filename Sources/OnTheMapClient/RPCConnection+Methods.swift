import OnTheMapModels
import OnTheMapRPC

extension RPCConnection {
    /// Calls the method `params` declares, with the params written from its declaration: its result,
    /// read into the declared type, or its error.
    public func call<Params: RPCRequestType>(_ params: Params) throws -> Result<Params.Response, RPCError>
    where Params.Response: Decodable {
        try call(Params.method, params: params.params, as: Params.Response.self)
    }

    /// The same; RPC errors are thrown.
    public func result<Params: RPCRequestType>(_ params: Params) throws -> Params.Response
    where Params.Response: Decodable {
        try call(params).get()
    }
}
