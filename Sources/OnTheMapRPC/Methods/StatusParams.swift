/// `status` → the daemon's state (`StatusResult`). Needs no login.
public struct StatusParams: RPCRequestWithoutParams, Equatable {
    public typealias Response = StatusResult
    public static let method = "status"
    public static let summary = "The daemon's state: version, apiURL, loggedIn, account, students {count, skipped, skippedWhy?, refreshedAt?, stale, lastError?}, myPin?, busy, uptime."

    public init() {}
}
