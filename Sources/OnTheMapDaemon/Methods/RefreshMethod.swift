import OnTheMapRPC

/// `refresh` (`RefreshParams`) → fetches now; concurrent refreshes share one upstream request.
enum RefreshMethod: RPCMethod {
    static func answer(_ request: RefreshParams, daemon: Daemon, connection: any ConnectionControl) async throws -> RPCResult {
        try await daemon.refresh()
        let snapshot = daemon.state.current
        return .result(RefreshResult(count: snapshot.students.count, refreshedAt: snapshot.refreshedAt))
    }
}
