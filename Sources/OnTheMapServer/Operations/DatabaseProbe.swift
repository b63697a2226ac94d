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
    /// What the last scheduled integrity check found wrong (empty: sound); never runs the check.
    func integrityProblems() -> [String]
}

extension DatabaseProbe {
    /// No integrity check.
    public func integrityProblems() -> [String] { [] }
}

/// What `/healthz` and the gauges of `/metrics` ask, of whichever storage the server runs on.
public struct StorageProbe: DatabaseProbe {
    let storage: any ServerStorage
    /// The scheduled integrity check's verdicts, when one runs.
    let integrity: IntegrityMonitor?

    public init(storage: any ServerStorage, integrity: IntegrityMonitor? = nil) {
        self.storage = storage
        self.integrity = integrity
    }

    public func integrityProblems() -> [String] {
        integrity?.problems ?? []
    }

    public func ping() async throws {
        try await storage.ping()
    }

    public func counts() async throws -> DatabaseCounts {
        let now = Date()
        let sessions = try await storage.allSessions(accountKey: nil).filter { $0.expiresAt > now }.count
        return DatabaseCounts(pins: try await storage.locationCount(), activeSessions: sessions)
    }
}
