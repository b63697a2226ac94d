import OnTheMapModels
import OnTheMapRPC

/// `refresh` → fetches now; concurrent refreshes share one upstream request.
enum RefreshMethod: RPCMethod {
    static let name = "refresh"
    static let summary = "Fetch the student list from upstream now; answers {count, refreshedAt}. Requires login."
    static let params: [(String, String, Bool, String)] = []

    static func handle(_ params: WireJSON?, daemon: Daemon, connection: any ConnectionControl) async throws -> RPCResult {
        _ = try RPCParams(params, allowed: allowedParams)
        try await daemon.refresh()
        return .value(.object([
            ("count", .integer(await daemon.cache.count)),
            ("refreshedAt", (await daemon.cache.refreshedAt).map { .string(WireTimestamp.milliseconds($0)) } ?? .null),
        ]))
    }
}
