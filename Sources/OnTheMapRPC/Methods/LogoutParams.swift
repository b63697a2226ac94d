import OnTheMapModels

/// `logout` → ends the upstream session if reachable; always forgets it locally.
public struct LogoutParams: RPCRequestWithoutParams, Equatable {
    public typealias Response = LogoutResult
    public static let method = "logout"
    public static let summary = "End the session upstream (XSRF) and forget it, the account and the cached students; succeeds offline and says so in `upstream`."

    public init() {}
}

/// `logout`'s result: `{loggedOut, upstream}`.
public struct LogoutResult: RPCResultType, Equatable {
    public var loggedOut: Bool
    /// "ended", "already ended", "no session", or why the upstream was not reached.
    public var upstream: String

    /// Creates a result.
    public init(loggedOut: Bool = true, upstream: String) {
        self.loggedOut = loggedOut
        self.upstream = upstream
    }
}
