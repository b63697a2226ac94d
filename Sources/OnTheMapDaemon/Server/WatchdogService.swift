import ServiceLifecycle
import OnTheMapSystemd
import OnTheMapAPI

/// Pings the systemd watchdog at half its interval, and only after the daemon's state actors have
/// answered: a wedged daemon stops pinging and gets restarted.
struct WatchdogService: Service {
    let daemon: Daemon

    func run() async throws {
        guard let interval = daemon.notifier.watchdogInterval() else {
            try? await gracefulShutdown()
            return
        }
        await daemon.readiness.wait()
        while !Task.isCancelled {
            _ = await daemon.statusJSON()
            daemon.notifier.watchdog()
            do {
                try await cancelWhenGracefulShutdown { try await EventLoopTimer.sleep(for: interval) }
            } catch {
                return
            }
        }
    }
}
