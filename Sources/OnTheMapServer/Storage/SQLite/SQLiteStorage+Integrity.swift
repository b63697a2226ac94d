import GRDB

extension SQLiteStorage {
    /// `PRAGMA quick_check`: what SQLite finds wrong with the file's pages and their structure (the
    /// first ten findings), nothing when it is sound. Reads every page once, so writes go on
    /// meanwhile; run on a schedule (`IntegrityMonitor`), never per request.
    ///
    /// For a file, on a connection of its own, opened for the check: a pooled connection keeps the
    /// pages it read until some commit tells it the file changed, so a file damaged with no write
    /// after it passed the check (and served the damaged pages' old contents). Once damage is found,
    /// the pool's connections drop the pages they hold, so requests see the file as it is.
    public func integrityProblems() async throws -> [String] {
        guard let pool = writer as? DatabasePool else {
            return try await Self.findings { try await Self.quickCheck(writer) }
        }
        let problems = try await Self.findings {
            var configuration = Configuration()
            configuration.readonly = true
            let connection = try DatabaseQueue(path: pool.path, configuration: configuration)
            defer { try? connection.close() }
            return try await Self.quickCheck(connection)
        }
        if !problems.isEmpty { pool.releaseMemory() }
        return problems
    }

    private static func quickCheck(_ database: some DatabaseReader) async throws -> [String] {
        let rows = try await database.read { db in try String.fetchAll(db, sql: "PRAGMA quick_check(10)") }
        return rows == ["ok"] ? [] : rows
    }

    /// What `check` finds; a file so damaged that opening or checking it stops is that finding.
    private static func findings(_ check: () async throws -> [String]) async throws -> [String] {
        do {
            return try await check()
        } catch let error as DatabaseError where error.resultCode == .SQLITE_CORRUPT || error.resultCode == .SQLITE_NOTADB {
            return [error.message ?? "\(error.resultCode)"]
        }
    }
}
