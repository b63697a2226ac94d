import OnTheMapAPI
import OnTheMapSystemd
import ServiceLifecycle

/// Pings the systemd watchdog at half its interval, and only after the daemon's state actor has
/// answered: a wedged daemon stops pinging and gets restarted.
struct WatchdogService: Service {
    let daemon: Daemon

    func run() async throws {
        guard let interval = daemon.notifier.watchdogInterval() else {
            try? await gracefulShutdown()
            return
        }
        guard await daemon.state.feed.ready() else { return }
        while !Task.isCancelled {
            await daemon.state.answer()
            daemon.notifier.watchdog()
            do {
                try await cancelWhenGracefulShutdown { try await EventLoopTimer.sleep(for: interval) }
            } catch {
                return
            }
        }
    }
}
