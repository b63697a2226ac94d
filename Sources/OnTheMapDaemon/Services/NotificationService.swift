import OnTheMapAPI
import Foundation
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
        var status = statusJSON(seen)
        while !Task.isCancelled {
            guard case .changed(let snapshot) = await daemon.state.feed.next(after: seen.version, atMost: nil) else { return }
            let subscribers = daemon.subscribers
            if snapshot.session?.sessionID != seen.session?.sessionID || snapshot.account != seen.account {
                subscribers.publish(.session, Self.sessionParams(snapshot))
            }
            if snapshot.listVersion != seen.listVersion {
                subscribers.publish(
                    .students, RefreshResult(count: snapshot.students.count, refreshedAt: snapshot.refreshedAt).wireJSON)
            }
            let newStatus = statusJSON(snapshot)
            if newStatus != status {
                var withUptime = newStatus
                if case .object(var members) = newStatus {
                    members.append(("uptime", .number(daemon.answers.uptime())))
                    withUptime = .object(members)
                }
                subscribers.publish(.status, withUptime)
            }
            seen = snapshot
            status = newStatus
        }
    }

    private func statusJSON(_ snapshot: DaemonSnapshot) -> WireJSON {
        snapshot.status(version: Daemon.version, apiURL: daemon.configuration.apiURL).wireJSON
    }

    /// `{loggedIn, account, reason?}`.
    static func sessionParams(_ snapshot: DaemonSnapshot) -> WireJSON {
        let account = snapshot.session == nil ? nil : snapshot.account
        var members: [(String, WireJSON)] = [("loggedIn", .bool(account != nil)), ("account", account?.wireJSON ?? .null)]
        if account == nil, let reason = snapshot.sessionEnd { members.append(("reason", .string(reason.rawValue))) }
        return .object(members)
    }
}
