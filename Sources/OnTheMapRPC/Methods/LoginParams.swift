import OnTheMapModels

/// `login {username, password}` or `{facebookAccessToken}` → the account.
public struct LoginParams: RPCRequestType, Equatable {
    public typealias Response = AccountInfo
    public static let method = "login"
    public static let summary = "Log in with Udacity credentials or a Facebook access token; answers the account."

    public static let username = RPCParam<String>.string("username", "Udacity email")
    public static let password = RPCParam<String>.string("password", "Udacity password (never stored, never logged)")
    public static let facebookAccessToken = RPCParam<String>.string("facebookAccessToken", "instead of username and password")
    public static let parameters = [username, password, facebookAccessToken].map(\.parameter)

    /// What to log in with (the secret is never logged: see `LoginRequest.description`).
    public var credentials: LoginRequest

    public init(_ credentials: LoginRequest) {
        self.credentials = credentials
    }

    public init(reading params: RPCParams) throws(RPCError) {
        if let token = try params(Self.facebookAccessToken) {
            guard try params(Self.username) == nil, try params(Self.password) == nil else {
                throw .invalidParams(field: Self.facebookAccessToken.name, "cannot be combined with username and password")
            }
            credentials = .facebook(accessToken: token)
        } else {
            credentials = .udacity(username: try params.required(Self.username), password: try params.required(Self.password))
        }
    }

    public var params: WireJSON? {
        var writer = RPCParamsWriter()
        switch credentials {
        case .udacity(let username, let password):
            writer.add(Self.username, username)
            writer.add(Self.password, password)
        case .facebook(let accessToken):
            writer.add(Self.facebookAccessToken, accessToken)
        }
        return writer.params
    }
}
