import Foundation
import GRDB

/// Figures the operations endpoints read from the database.
public struct DatabaseCounts: Sendable, Equatable {
    /// Student locations stored.
    public var pins: Int
    /// Sessions not yet expired.
    public var activeSessions: Int
}

/// What `/healthz` and `/metrics` ask of a storage backend: is it answering, and how much does it hold.
///
/// A backend other than SQLite conforms to serve both endpoints.
public protocol DatabaseProbe: Sendable {
    /// Throws unless the database answers a query.
    func ping() async throws
    /// Counts for the gauges.
    func counts() async throws -> DatabaseCounts
}

extension AppDatabase: DatabaseProbe {
    public func ping() async throws {
        _ = try await writer.read { db in try Int.fetchOne(db, sql: "SELECT 1") }
    }

    public func counts() async throws -> DatabaseCounts {
        try await writer.read { db in
            let pins = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM studentLocation") ?? 0
            let sessions =
                try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM session WHERE expiresAt > ?", arguments: [Date()]) ?? 0
            return DatabaseCounts(pins: pins, activeSessions: sessions)
        }
    }
}
