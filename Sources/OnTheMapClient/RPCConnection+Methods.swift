import OnTheMapModels
import OnTheMapRPC

extension RPCConnection {
    /// Calls the method `params` declares, with the params written from its declaration; the result
    /// as the daemon sent it, or its error.
    public func call<Params: RPCRequestType>(_ params: Params) throws -> Result<WireJSON, RPCError> {
        try call(Params.method, params: params.params)
    }

    /// The same, with the result read into its declared type; RPC errors are thrown.
    public func result<Params: RPCRequestType>(_ params: Params) throws -> Params.Response
    where Params.Response: RPCResultType {
        Params.Response(wireJSON: try call(params).get())
    }
}
