extension Result where Failure == any Error {
    /// The outcome of an async throwing closure, so cleanup can run before the error is rethrown.
    public init(_ body: () async throws -> Success) async {
        do { self = .success(try await body()) } catch { self = .failure(error) }
    }
}
