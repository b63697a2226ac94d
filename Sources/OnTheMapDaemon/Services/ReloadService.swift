import Logging
import ServiceLifecycle
import UnixSignals
import OnTheMapSystemd

/// SIGHUP: `RELOADING=1`, re-read the configuration (refresh interval, idle timeout, cache size),
/// then `READY=1`. A bad file keeps the running configuration and says why; a changed setting that
/// only a restart applies (socket, API URL, log level, geocoder) is named in the log.
struct ReloadService: Service {
    let daemon: Daemon
    let logger: Logger
    /// Re-reads flags, environment and file.
    let reload: @Sendable () throws -> DaemonConfiguration
    /// SIGHUP, trapped before the socket listens (`DaemonRunner`): trapped in `run`, a SIGHUP sent once
    /// the socket answered could come before the trap on a busy machine, and was lost.
    let hangups: UnixSignalsSequence

    func run() async throws {
        for await _ in hangups.cancelOnGracefulShutdown() {
            daemon.notifier.reloading()
            do {
                let configuration = try reload()
                await daemon.live.update(configuration)
                logger.info("configuration reloaded")
                let running = daemon.configuration
                let needRestart = [
                    ("socket", configuration.socketPath != running.socketPath),
                    ("api-url", configuration.apiURL != running.apiURL),
                    ("log-level", configuration.logLevel != running.logLevel),
                    ("geocoder", configuration.geocoder != running.geocoder),
                ].filter(\.1).map(\.0)
                if !needRestart.isEmpty {
                    logger.warning(
                        "changed settings take effect at the next start", metadata: ["settings": "\(needRestart)"])
                }
            } catch {
                logger.error("configuration not reloaded; keeping the running one", metadata: ["error": "\(error)"])
            }
            daemon.notifier.ready(status: daemon.state.feed.latest.statusLine())
        }
    }
}
