extension Result where Failure == any Error {
    /// The outcome of an async throwing closure, so cleanup can run before the error is rethrown.
    public init(_ body: () async throws -> Success) async {
        do { self = .success(try await body()) } catch { self = .failure(error) }
    }
}

extension ServerStorage {
    /// Runs `body`, then closes the storage whatever happened, and returns its result or rethrows.
    public func closing<T>(after body: () async throws -> T) async throws -> T {
        let result = await Result { try await body() }
        await close()
        return try result.get()
    }
}
