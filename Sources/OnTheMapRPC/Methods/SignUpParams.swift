import OnTheMapModels

/// `signUp` → `{url?}`: where a person without an account gets one on this daemon's server.
public struct SignUpParams: RPCRequestWithoutParams, Equatable {
    public typealias Response = SignUpResult
    public static let method = "signUp"
    public static let summary =
        "The sign-up page the server's operator names (onthemap-server serve --signup-url), as the server's web page says it; absent when it names none. Needs no login."

    public init() {}
}

/// `signUp`'s result.
public struct SignUpResult: RPCResultType, Equatable {
    /// An http(s) page where accounts are made; absent when the server names none (accounts then come
    /// from its operator).
    public var url: String?

    public init(url: String?) {
        self.url = url
    }
}
