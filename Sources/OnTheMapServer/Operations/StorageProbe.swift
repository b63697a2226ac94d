import Foundation

/// What `/healthz` and the gauges of `/metrics` ask, of whichever storage the server runs on: is it
/// answering, how much does it hold, and what did its last integrity check find.
public struct StorageProbe: Sendable {
    let storage: any ServerStorage
    /// The scheduled integrity check's verdicts, when one runs.
    let integrity: IntegrityMonitor?

    public init(storage: any ServerStorage, integrity: IntegrityMonitor? = nil) {
        self.storage = storage
        self.integrity = integrity
    }

    /// What the last scheduled integrity check found wrong (empty: sound); never runs the check.
    public func integrityProblems() -> [String] {
        integrity?.problems ?? []
    }

    /// Throws unless the database answers a query.
    public func ping() async throws {
        try await storage.ping()
    }

    /// Counts for the gauges: student locations stored, and sessions not yet expired.
    public func counts() async throws -> (pins: Int, activeSessions: Int) {
        let now = Date()
        let sessions = try await storage.allSessions(accountKey: nil).filter { $0.expiresAt > now }.count
        return (pins: try await storage.locationCount(), activeSessions: sessions)
    }
}
