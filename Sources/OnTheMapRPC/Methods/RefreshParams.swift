import FoundationEssentials
import OnTheMapModels

/// `refresh` → fetches now; concurrent refreshes share one upstream request.
public struct RefreshParams: RPCRequestWithoutParams, Equatable {
    public typealias Response = RefreshResult
    public static let method = "refresh"
    public static let summary = "Fetch the student list from upstream now; answers {count, refreshedAt}. Requires login."

    public init() {}
}

/// `refresh`'s result, and the params of the `studentsChanged` notification: `{count, refreshedAt}`.
public struct RefreshResult: RPCResultType, Equatable {
    public var count: Int
    public var refreshedAt: Date?

    /// Creates a result.
    public init(count: Int, refreshedAt: Date?) {
        self.count = count
        self.refreshedAt = refreshedAt
    }
}
