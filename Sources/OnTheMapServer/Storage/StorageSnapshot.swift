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

    /// FNV-1a (64-bit) over one canonical line per row: enough to tell two copies apart, not a
    /// cryptographic hash.
    public var checksum: String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        func add(_ line: String) {
            for byte in line.utf8 {
                hash ^= UInt64(byte)
                hash = hash &* 0x0000_0100_0000_01B3
            }
            hash ^= 0x0A
            hash = hash &* 0x0000_0100_0000_01B3
        }
        func ms(_ date: Date?) -> String { date.map { String(Int64((($0.timeIntervalSince1970) * 1000).rounded())) } ?? "-" }
        for a in accounts {
            add(["A", a.key, a.email ?? "-", a.passwordHash ?? "-", a.facebookID ?? "-", a.firstName, a.lastName,
                 a.nickname, ms(a.createdAt), a.disabled ? "1" : "0"].joined(separator: "\u{1F}"))
        }
        for s in sessions {
            add(["S", s.id, s.xsrfToken, s.accountKey, ms(s.createdAt), ms(s.expiresAt), ms(s.lastUsedAt),
                 s.clientAddress ?? "-", s.userAgent ?? "-"].joined(separator: "\u{1F}"))
        }
        for l in locations {
            add(["L", l.objectId, l.uniqueKey, l.firstName, l.lastName, l.mapString, l.mediaURL, "\(l.latitude)",
                 "\(l.longitude)", ms(l.createdAt), ms(l.updatedAt)].joined(separator: "\u{1F}"))
        }
        return String(hash, radix: 16)
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
