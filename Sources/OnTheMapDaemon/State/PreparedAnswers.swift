import Foundation
import NIOCore
import OnTheMapModels
import OnTheMapRPC
import Synchronization

/// The two answers status bars and scripts ask for most, `status` and the default `students`,
/// serialized once per state version and shared by the fast path (`FastPathHandler`, on the
/// connection's event loop) and the ordinary one: one copy each, a function of the snapshot.
///
/// Built by whoever first asks for a version (any thread); a later version, or the time the
/// snapshot's answers stop being true (the list turns stale), replaces them. Mutex-protected.
final class PreparedAnswers: Sendable {
    struct Entry: Sendable {
        var version: UInt64
        /// The `status` result without its last member, `uptime`, which is added per answer.
        var statusPrefix: ByteBuffer
        /// The default `students` result; nil when logged out.
        var students: ByteBuffer?
        /// When these answers stop being true by time alone.
        var validUntil: Date?
    }

    private let version: String
    private let apiURL: String
    private let latest = Mutex<Entry?>(nil)
    let startedAt = ContinuousClock.now

    init(version: String, apiURL: String) {
        self.version = version
        self.apiURL = apiURL
    }

    /// The answers for `snapshot`, built now unless already built for it and still true.
    func prepared(for snapshot: DaemonSnapshot, now: Date = Date()) -> Entry {
        if let entry = latest.withLock({ $0 }), entry.version == snapshot.version,
            entry.validUntil.map({ now < $0 }) ?? true
        {
            return entry
        }
        let entry = build(snapshot, now: now)
        latest.withLock { stored in
            // A slower builder of an older version must not replace a newer one.
            if stored == nil || stored!.version <= entry.version { stored = entry }
        }
        return entry
    }

    private func build(_ snapshot: DaemonSnapshot, now: Date) -> Entry {
        let status = snapshot.status(version: version, apiURL: apiURL, now: now).wireJSON.serialized
        var students: ByteBuffer?
        if snapshot.liveSession(at: now) != nil, let refreshedAt = snapshot.refreshedAt {
            students = ByteBuffer(bytes: StudentsAnswer(
                students: snapshot.students.entries.prefix(StudentsParams.defaultLimit).map(\.json),
                total: snapshot.students.count, refreshedAt: refreshedAt, stale: snapshot.isStale(at: now)
            ).serializedBytes)
        }
        return Entry(
            version: snapshot.version, statusPrefix: ByteBuffer(string: String(status.dropLast())), students: students,
            validUntil: snapshot.validUntil(now: now))
    }

    /// Seconds since the daemon started, to the millisecond.
    func uptime() -> Double {
        ((ContinuousClock.now - startedAt).seconds * 1000).rounded() / 1000
    }

    /// The whole `status` result as of now: the prepared part and the uptime.
    func status(_ entry: Entry) -> ByteBuffer {
        var buffer = entry.statusPrefix
        buffer.writeString(#","uptime":"# + WireJSON.number(uptime()).serialized + "}")
        return buffer
    }
}
