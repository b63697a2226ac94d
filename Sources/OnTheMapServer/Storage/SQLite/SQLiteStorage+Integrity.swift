import GRDB

extension SQLiteStorage {
    /// `PRAGMA quick_check`: what SQLite finds wrong with the file's pages and their structure (the
    /// first ten findings), nothing when it is sound. Reads every page once, on a reader connection,
    /// so writes go on meanwhile; run on a schedule (`IntegrityMonitor`), never per request.
    public func integrityProblems() async throws -> [String] {
        do {
            let rows = try await writer.read { db in try String.fetchAll(db, sql: "PRAGMA quick_check(10)") }
            return rows == ["ok"] ? [] : rows
        } catch let error as DatabaseError where error.resultCode == .SQLITE_CORRUPT || error.resultCode == .SQLITE_NOTADB {
            // So damaged that the check itself stops: that is its finding.
            return [error.message ?? "\(error.resultCode)"]
        }
    }
}
