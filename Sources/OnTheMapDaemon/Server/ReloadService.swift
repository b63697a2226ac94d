import Logging
import ServiceLifecycle
import UnixSignals
import OnTheMapSystemd

/// SIGHUP: `RELOADING=1`, re-read the configuration (refresh interval, idle timeout, cache size),
/// then `READY=1`. A bad file keeps the running configuration and says why.
struct ReloadService: Service {
    let daemon: Daemon
    let logger: Logger
    /// Re-reads flags, environment and file.
    let reload: @Sendable () throws -> DaemonConfiguration

    func run() async throws {
        for await _ in await UnixSignalsSequence(trapping: .sighup).cancelOnGracefulShutdown() {
            daemon.notifier.reloading()
            do {
                let configuration = try reload()
                await daemon.live.update(configuration)
                logger.info("configuration reloaded")
            } catch {
                logger.error("configuration not reloaded; keeping the running one", metadata: ["error": "\(error)"])
            }
            daemon.notifier.ready(status: await daemon.statusLine())
        }
    }
}
