import FoundationEssentials
import OnTheMapModels
import OnTheMapRPC

extension AccountInfo {
    /// "Ada L.": short enough for a status line.
    var shortName: String {
        lastName.isEmpty ? firstName : "\(firstName) \(lastName.prefix(1))."
    }
}

extension DaemonSnapshot {
    /// The `status` result this snapshot gives.
    func status(version: String, apiURL: String, uptime: Double, now: Date = Date()) -> StatusResult {
        let account = liveSession(at: now)?.account
        return StatusResult(
            version: version, apiURL: apiURL, account: account,
            students: .init(
                count: students.count, skipped: skipped, skippedWhy: skippedWhy, refreshedAt: refreshedAt,
                stale: isStale(at: now), lastError: lastError),
            myPin: account == nil ? nil : myPin.map { StudentPin(student: $0, mine: true) },
            busy: busy, uptime: uptime)
    }

    /// What `refresh` answers and the `students` notification says: the list as of this snapshot.
    var refreshResult: RefreshResult { RefreshResult(count: students.count, refreshedAt: refreshedAt) }

    /// The short line `systemctl --user status` shows.
    func statusLine(now: Date = Date()) -> String {
        guard let account = liveSession(at: now)?.account else { return "logged out" }
        if let error = lastError {
            let seconds = retryAt.map { Int(max(0, $0.timeIntervalSince(now)).rounded()) }
            let retry = seconds.map { ", retrying in \($0) s" } ?? ""
            return "logged in as \(account.shortName); upstream failing (\(error.prefix(80)))\(retry)"
        }
        guard let refreshedAt else { return "logged in as \(account.shortName); no students yet" }
        return "logged in as \(account.shortName); \(students.count) students, refreshed \(RelativeTime.describe(refreshedAt, now: now))"
    }

    /// When `statusLine()` next reads differently by time alone ("refreshed 2 min ago" after
    /// "1 min ago"); nil when it holds no time.
    func nextStatusLineChange(now: Date = Date()) -> Date? {
        guard liveSession(at: now) != nil, lastError == nil, let refreshedAt else { return nil }
        return RelativeTime.nextChange(of: refreshedAt, now: now)
    }
}
