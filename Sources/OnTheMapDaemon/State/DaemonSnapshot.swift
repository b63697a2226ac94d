import FoundationEssentials
import OnTheMapAPI
import OnTheMapModels
import OnTheMapRPC

/// Everything the daemon knows, as of one version: what `DaemonState` publishes after every change.
///
/// A value, never changed once published: readers on any thread (the methods, the notification and
/// status-line services) work from the copy they hold, and whatever mirrors state (`status`,
/// notifications, systemd's `STATUS=`) is a function of one of these.
struct DaemonSnapshot: Sendable {
    /// Grows by one with every change.
    var version: UInt64 = 0
    /// Set once the socket accepts and systemd was told READY=1; the watchdog and the status line
    /// start only then.
    var ready = false
    /// The session, while logged in (possibly expired: see `liveSession(at:)`).
    var session: APISession?
    var account: AccountInfo?
    /// Why the last session ended; nil while logged in and before any session ended.
    var sessionEnd: SessionEnd?
    /// The cached students; empty when logged out.
    var students = StudentList.empty
    /// Grows when `students` is replaced or cleared, not when a refresh finds nothing new.
    var listVersion: UInt64 = 0
    var refreshedAt: Date?
    /// The list's tags, sent as `If-None-Match` by the next refresh: 304s keep the list.
    var listTags: ListTags?
    /// Records of the last refresh left out (a required field missing, a coordinate out of range).
    var skipped = 0
    /// Why, naming the fields (`SkippedRecord.summary`).
    var skippedWhy: String?
    /// Why the last refresh failed; nil once one succeeds.
    var lastError: String?
    /// When the refresher tries again after a failure.
    var retryAt: Date?
    /// The user's own newest pin, as the cached list or the last write showed it.
    var myPin: StudentLocation?
    /// What is in flight (`login`, `refresh`, `postPin`, …), sorted, each once.
    var busy: [String] = []
    /// How old the list may grow before it counts as stale.
    var staleAfter: TimeInterval

    init(staleAfter: TimeInterval) {
        self.staleAfter = staleAfter
    }

    /// The session and its account, unless logged out or the session has expired.
    func liveSession(at now: Date = Date()) -> (session: APISession, account: AccountInfo)? {
        guard let session, let account, !session.isExpired(at: now) else { return nil }
        return (session, account)
    }

    /// Whether the cache holds as many students as it may: the newest `cacheSize`, while the server
    /// may hold more (a cache holding fewer, the records left out counted, holds every student the
    /// server had).
    func cacheIsFull(cacheSize: Int) -> Bool { students.count + skipped >= cacheSize }

    /// Whether the list may be out of date: the last refresh failed, or it is older than expected.
    func isStale(at now: Date = Date()) -> Bool {
        guard let refreshedAt else { return lastError != nil }
        return lastError != nil || now.timeIntervalSince(refreshedAt) > staleAfter
    }

    /// Takes `students` as the list, described by `file` (its tag, when, what was left out).
    mutating func takeList(_ students: StudentList, as file: StudentsFile) {
        self.students = students
        listVersion += 1
        listTags = file.tags
        refreshedAt = file.refreshedAt
        skipped = file.skipped
        skippedWhy = file.skippedWhy
    }

    /// Forgets the list and your pin in it: they belong to a session that is gone or to another account.
    mutating func forgetList() {
        students = .empty
        listVersion += 1
        listTags = nil
        refreshedAt = nil
        skipped = 0
        skippedWhy = nil
        myPin = nil
    }
}
