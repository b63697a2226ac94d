import Crypto
import Foundation
import OnTheMapModels

/// Every row that matters, for `copy`, `backup` and `restore`, with a checksum that two databases
/// holding the same data agree on whatever their backend.
public struct StorageSnapshot: Sendable {
    public var accounts: [AccountRecord]
    public var sessions: [SessionRecord]
    public var locations: [StudentLocation]

    public init(accounts: [AccountRecord], sessions: [SessionRecord], locations: [StudentLocation]) {
        self.accounts = accounts.sorted { $0.key < $1.key }
        self.sessions = sessions.sorted { $0.id < $1.id }
        self.locations = locations.sorted { $0.objectId < $1.objectId }
    }

    /// The rows as `WireCoding` writes them, one a line, hashed (`ContentDigest`). Every stored field
    /// counts, so one added to a record later is checked without a change here; all but an
    /// account's row id, which each database assigns anew on `restore`. Row by row: the whole
    /// database is never one buffer.
    public func checksum() throws -> String {
        var hash = SHA256()
        func add(_ row: some Encodable) throws {
            hash.update(data: try WireCoding.encode(row) + [UInt8(ascii: "\n")])
        }
        for account in accounts {
            var account = account
            account.id = nil
            try add(account)
        }
        for session in sessions { try add(session) }
        for location in locations { try add(location) }
        return ContentDigest.hex(hash.finalize())
    }

    /// "3 accounts, 5 sessions, 240 pins".
    public var counts: String {
        "\(accounts.count) accounts, \(sessions.count) sessions, \(locations.count) pins"
    }
}

/// Whole-database reads and writes, for moving a group's data between databases.
public protocol BulkStore: Sendable {
    /// Every account, session and pin.
    func snapshot() async throws -> StorageSnapshot
    /// Writes a snapshot into a database that holds no accounts and no pins, in one transaction;
    /// throws if the database is not empty.
    func restore(_ snapshot: StorageSnapshot) async throws
}
