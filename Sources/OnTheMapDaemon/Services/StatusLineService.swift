import FoundationEssentials
import OnTheMapSystemd
import ServiceLifecycle

/// Keeps the line `systemctl --user status` shows (`STATUS=`) a function of the state: sent when a
/// new snapshot reads differently, and as time passes ("refreshed 4 min ago", not the "just now" of
/// the last refresh) at most once a minute, at the moment the line's relative time would change.
/// Only when a service manager listens (`NOTIFY_SOCKET`).
struct StatusLineService: Service {
    let daemon: Daemon
    /// The least time between two updates by time alone (changes of state are sent at once).
    var minimumGap: Duration = .seconds(60)

    func run() async throws {
        guard daemon.notifier.isListening else {
            // Nothing to keep up to date: end quietly with the daemon.
            try? await gracefulShutdown()
            return
        }
        guard await daemon.state.feed.ready() else { return }
        var snapshot = daemon.state.feed.latest
        // What systemd shows now: the line READY=1 carried, or the last one sent since.
        var shown = snapshot.statusLine()
        var earliest = ContinuousClock.now
        while !Task.isCancelled {
            // Nil while the line holds no time (logged out, upstream failing): then only a change
            // of state can make one due. A little after the change, as timers may fire a hair early.
            let delay = snapshot.nextStatusLineChange().map { change in
                let due = ContinuousClock.now + .milliseconds(Int64(change.timeIntervalSinceNow * 1000) + 20)
                return max(due, earliest) - .now
            }
            switch await daemon.state.feed.next(after: snapshot.version, atMost: delay) {
            case .stopping:
                return
            case .changed(let newer):
                snapshot = newer
                let line = snapshot.statusLine()
                guard line != shown else { continue }
                daemon.notifier.status(line)
                shown = line
            case .elapsed:
                let line = snapshot.statusLine()
                guard line != shown else { continue }
                daemon.notifier.status(line)
                shown = line
                earliest = .now + minimumGap
            }
        }
    }
}
