import OnTheMapRPC

/// `students` (`StudentsParams`) → the cached list, filtered and sorted as asked.
enum StudentsMethod: RPCMethod {
    static func answer(_ request: StudentsParams, daemon: Daemon, connection: any ConnectionControl) async throws -> RPCResult {
        try await daemon.students(request)
    }
}
