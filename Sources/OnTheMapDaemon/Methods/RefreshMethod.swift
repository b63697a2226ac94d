import OnTheMapRPC

/// `refresh` (`RefreshParams`) → fetches now; concurrent refreshes share one upstream request.
enum RefreshMethod: RPCMethod {
    static func answer(_ request: RefreshParams, daemon: Daemon, connection: any ConnectionControl) async throws -> RPCResult {
        try await daemon.refresh()
        return .value(RefreshResult(count: await daemon.cache.count, refreshedAt: await daemon.cache.refreshedAt).wireJSON)
    }
}
