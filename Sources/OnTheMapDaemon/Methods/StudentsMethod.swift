import OnTheMapRPC

/// `students` (`StudentsParams`) → the cached list, filtered and sorted as asked.
enum StudentsMethod: RPCMethod {
    static func answer(_ request: StudentsParams, daemon: Daemon, connection: any ConnectionControl) async throws -> RPCResult {
        var query = StudentQuery()
        query.limit = request.limit ?? query.limit
        query.skip = request.skip ?? 0
        query.search = request.search
        query.near = request.near.map { ($0.latitude, $0.longitude, $0.radiusKm) }
        return try await daemon.students(query, refresh: request.refresh ?? false)
    }
}
