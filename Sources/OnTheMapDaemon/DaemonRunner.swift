import Logging
import ServiceLifecycle
import UnixSignals
import OnTheMapSystemd

/// Starts the daemon's services in order and stops them in reverse on SIGTERM or SIGINT.
public enum DaemonRunner {
    public static func run(
        configuration: DaemonConfiguration, activatedSocket: Int32?, logger: Logger,
        reload: @escaping @Sendable () throws -> DaemonConfiguration
    ) async throws {
        // Refuse (socket already served, directory not private) before anything starts: a refused
        // start then has nothing to stop, however busy the machine is.
        if activatedSocket == nil { try SocketPreparation.prepare(configuration.socketPath) }
        // How to start it again, for the clients' advice while it is not running (`StartHint`).
        StartHint.leave(beside: configuration.socketPath, activated: activatedSocket != nil)
        // Before the socket listens: whoever can reach the socket may send a SIGHUP at once.
        let hangups = await UnixSignalsSequence(trapping: .sighup)
        let daemon = Daemon(configuration: configuration, logger: logger)
        await daemon.load()
        let listener = RPCListener(daemon: daemon, activatedSocket: activatedSocket, logger: logger) {
            // READY only now: the socket accepts and the persisted state is loaded.
            daemon.notifier.ready(status: daemon.state.feed.latest.statusLine())
            await daemon.state.markReady()
        }
        let group = ServiceGroup(
            configuration: ServiceGroupConfiguration(
                services: [
                    .init(service: listener),
                    .init(service: CacheRefresher(daemon: daemon, logger: logger)),
                    .init(service: WatchdogService(daemon: daemon), successTerminationBehavior: .ignore),
                    .init(service: NotificationService(daemon: daemon)),
                    .init(service: StatusLineService(daemon: daemon), successTerminationBehavior: .ignore),
                    .init(service: ReloadService(daemon: daemon, logger: logger, reload: reload, hangups: hangups)),
                    .init(service: ShutdownBackstop(logger: logger)),
                ],
                gracefulShutdownSignals: [.sigterm, .sigint],
                logger: logger
            ).withShutdownLimits())
        do {
            try await group.run()
        } catch {
            await daemon.shutdown()
            throw error
        }
        await daemon.shutdown()
        logger.notice("stopped")
    }
}

extension ServiceGroupConfiguration {
    /// Requests in flight get 3 s to finish after SIGTERM; then they are cancelled (and answered with
    /// an error). Cancellation itself has no limit here: swift-service-lifecycle's limit ends in
    /// `fatalError` (a SIGILL crash on a busy machine); `ShutdownBackstop` bounds it instead, with an
    /// ordinary exit.
    func withShutdownLimits() -> ServiceGroupConfiguration {
        var configuration = self
        configuration.maximumGracefulShutdownDuration = .seconds(3)
        configuration.maximumCancellationDuration = nil
        return configuration
    }
}
