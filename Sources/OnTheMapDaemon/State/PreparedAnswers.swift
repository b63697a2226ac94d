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
        if let entry = built(for: snapshot.version, now: now) { return entry }
        let entry = build(snapshot, now: now)
        latest.withLock { stored in
            // A slower builder of an older version must not replace a newer one.
            if stored == nil || stored!.version <= entry.version { stored = entry }
        }
        return entry
    }

    /// The answers already built for `version`, if they are still true at `now`. They stop being
    /// true when the session expires, so answers found here are never those of an expired session.
    func built(for version: UInt64, now: Date = Date()) -> Entry? {
        guard let entry = latest.withLock({ $0 }), entry.version == version, entry.validUntil.map({ now < $0 }) ?? true
        else { return nil }
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
        Double(uptimeMilliseconds()) / 1000
    }

    /// Milliseconds since the daemon started: the uptime both the notifications and the answers give.
    private func uptimeMilliseconds() -> Int {
        Int(((ContinuousClock.now - startedAt).seconds * 1000).rounded())
    }

    /// The whole `status` result as of now: the prepared part and the uptime.
    func status(_ entry: Entry) -> ByteBuffer {
        var buffer = ByteBuffer()
        writeStatus(entry, into: &buffer)
        return buffer
    }

    /// Appends the whole `status` result as of now to `buffer`.
    func writeStatus(_ entry: Entry, into buffer: inout ByteBuffer) {
        buffer.writeImmutableBuffer(entry.statusPrefix)
        buffer.writeStaticString(#","uptime":"#)
        Self.writeSeconds(milliseconds: uptimeMilliseconds(), into: &buffer)
        buffer.writeInteger(UInt8(ascii: "}"))
    }

    /// `milliseconds` as a JSON number of seconds (`12`, `12.5`, `12.345`): the number `uptime()`
    /// gives, written with integer arithmetic; formatting the `Double` was a quarter of a `status`
    /// answer's own time.
    static func writeSeconds(milliseconds: Int, into buffer: inout ByteBuffer) {
        let (seconds, fraction) = milliseconds.quotientAndRemainder(dividingBy: 1000)
        buffer.writeString(String(seconds))
        guard fraction > 0 else { return }
        var digits = fraction
        var width = 3
        while digits % 10 == 0 {
            digits /= 10
            width -= 1
        }
        buffer.writeInteger(UInt8(ascii: "."))
        let text = String(digits)
        for _ in text.utf8.count..<width { buffer.writeInteger(UInt8(ascii: "0")) }
        buffer.writeString(text)
    }
}
