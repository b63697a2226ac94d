/// `unsubscribe`: stops notifications on this connection.
public struct UnsubscribeParams: RPCRequestWithoutParams, Equatable {
    public typealias Response = SubscribeResult
    public static let method = "unsubscribe"
    public static let summary = "Stop notifications on this connection."

    public init() {}
}
