import Foundation
import OnTheMapSystemd
import ServiceLifecycle

/// Keeps the line `systemctl --user status` shows true as time passes: "refreshed 4 min ago", not
/// the "just now" of the last refresh. Only when a service manager listens (`NOTIFY_SOCKET`), and
/// at most once a minute, at the moment the line's relative time would read differently.
struct StatusLineService: Service {
    let daemon: Daemon
    /// The least time between two updates of its own (refreshes and logins update the line too).
    var minimumGap: Duration = .seconds(60)

    func run() async throws {
        guard daemon.notifier.isListening else {
            // Nothing to keep up to date: end quietly with the daemon.
            try? await gracefulShutdown()
            return
        }
        await daemon.readiness.wait()
        // What systemd shows now: the line READY=1 carried, or the last one sent since.
        var shown = await daemon.statusLine()
        // Its own updates are a minute apart at least; the first may come sooner after READY.
        var earliest = ContinuousClock.now
        while !Task.isCancelled {
            // Nil while the line holds no time (logged out, upstream failing): then only a change
            // of state, which sends its own line, can make one due. A little after the change, as
            // timers may fire a hair early.
            let delay = await daemon.nextStatusLineChange().map { change in
                let due = ContinuousClock.now + .milliseconds(Int64(change.timeIntervalSinceNow * 1000) + 20)
                return max(due, earliest) - .now
            }
            switch await daemon.statusLineChanged.wait(atMost: delay) {
            case .stopping: return
            case .signalled: shown = await daemon.statusLine()
            case .elapsed:
                let line = await daemon.statusLine()
                guard line != shown else { continue }
                daemon.notifier.status(line)
                shown = line
                earliest = .now + minimumGap
            }
        }
    }
}
