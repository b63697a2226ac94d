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
        let daemon = Daemon(configuration: configuration, logger: logger)
        await daemon.load()
        let listener = RPCListener(daemon: daemon, activatedSocket: activatedSocket, logger: logger) {
            // READY only now: the socket accepts and the persisted state is loaded.
            daemon.notifier.ready(status: await daemon.statusLine())
            MemoryTrimmer.releaseExecutablePages()
            await daemon.readiness.markReady()
        }
        let group = ServiceGroup(
            configuration: ServiceGroupConfiguration(
                services: [
                    .init(service: listener),
                    .init(service: CacheRefresher(daemon: daemon, logger: logger)),
                    .init(service: WatchdogService(daemon: daemon), successTerminationBehavior: .ignore),
                    .init(service: ReloadService(daemon: daemon, logger: logger, reload: reload)),
                ],
                gracefulShutdownSignals: [.sigterm, .sigint],
                logger: logger
            ).withGracefulShutdownTimeout())
        do {
            try await group.run()
        } catch {
            await daemon.shutdown()
            throw error
        }
        await daemon.shutdown()
    }
}

extension ServiceGroupConfiguration {
    /// Requests in flight get 3 s to finish after SIGTERM; then they are cancelled (and answered with
    /// an error), so the daemon exits within systemd's patience whatever the upstream does.
    func withGracefulShutdownTimeout() -> ServiceGroupConfiguration {
        var configuration = self
        configuration.maximumGracefulShutdownDuration = .seconds(3)
        configuration.maximumCancellationDuration = .seconds(1)
        return configuration
    }
}
