import Foundation
import Logging
import OnTheMapServer
import OnTheMapTestSupport

/// The storage a router-level test runs on: SQLite in memory, or a new PostgreSQL database when the
/// suite runs on PostgreSQL (`TestDatabase`).
enum TestStorage {
    static func with<T>(
        pinsPerAccount: PinsPerAccount = .one, _ body: (any ServerStorage) async throws -> T
    ) async throws -> T {
        let storage = try await make(pinsPerAccount: pinsPerAccount)
        let result = await Result { try await body(storage) }
        await storage.close()
        return try result.get()
    }

    static func make(pinsPerAccount: PinsPerAccount = .one) async throws -> any ServerStorage {
        guard TestDatabase.usesPostgres else { return try SQLiteStorage.inMemory(pinsPerAccount: pinsPerAccount) }
        let url = try await PostgresTestServer.newDatabase()
        return try await PostgresStorage.connect(
            PostgresLocation(url: url), pinsPerAccount: pinsPerAccount, poolSize: 4, logger: Logger(label: "test"))
    }
}
