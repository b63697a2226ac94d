import OnTheMapAPI
import OnTheMapModels
import OnTheMapRPC
import ServiceLifecycle

/// Turns the state's changes into notifications for subscribed connections: `sessionChanged` when
/// the session or account changes, `studentsChanged` when the list is replaced or cleared,
/// `statusChanged` when the `status` answer reads differently (its uptime aside). Each from the
/// difference between the last snapshot it saw and the newest, in that order; a burst of changes
/// it could not follow one by one gives one notification each, for where they ended.
struct NotificationService: Service {
    let daemon: Daemon

    func run() async throws {
        var seen = daemon.state.feed.latest
        var status = withoutUptime(seen)
        while !Task.isCancelled {
            guard case .changed(let snapshot) = await daemon.state.feed.next(after: seen.version, atMost: nil) else { return }
            let subscribers = daemon.subscribers
            if snapshot.session?.sessionID != seen.session?.sessionID || snapshot.account != seen.account {
                subscribers.publish(.session, SessionChange(snapshot))
            }
            if snapshot.listVersion != seen.listVersion {
                subscribers.publish(.students, snapshot.refreshResult)
            }
            let newStatus = withoutUptime(snapshot)
            if newStatus != status {
                subscribers.publish(.status, daemon.status(of: snapshot))
            }
            seen = snapshot
            status = newStatus
        }
    }

    /// What `status` says of `snapshot`, but for the uptime, which changes all the time.
    private func withoutUptime(_ snapshot: DaemonSnapshot) -> StatusResult {
        var status = daemon.status(of: snapshot)
        status.uptime = 0
        return status
    }
}

extension SessionChange {
    /// What `sessionChanged` says of `snapshot`.
    init(_ snapshot: DaemonSnapshot) {
        let account = snapshot.session == nil ? nil : snapshot.account
        self.init(account: account, reason: account == nil ? snapshot.sessionEnd?.rawValue : nil)
    }
}
