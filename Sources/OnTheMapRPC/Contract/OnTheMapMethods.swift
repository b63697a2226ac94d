/// Every method of the daemon's protocol, in the order `rpc.discover` lists them.
public enum OnTheMapMethods {
    public static let all: [any RPCRequestType.Type] = [
        StatusParams.self, LoginParams.self, LogoutParams.self, StudentsParams.self, RefreshParams.self,
        GeocodeParams.self, MyPinParams.self, PostPinParams.self, SubscribeParams.self, UnsubscribeParams.self,
        MapParams.self, ExportMapParams.self, SignUpParams.self, DiscoverParams.self,
    ]
}
