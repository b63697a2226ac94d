import Foundation
import Logging
import NIOConcurrencyHelpers
import OnTheMapAPI
import OnTheMapGeocoder
import OnTheMapRPC
import OnTheMapSystemd

/// The daemon's state and the operations RPC methods call. Each piece of mutable state lives in
/// its own actor; this class only holds references.
public final class Daemon: Sendable {
    public let configuration: DaemonConfiguration
    let api: OnTheMapAPIClient
    let sessions: SessionStore
    let cache: StudentCache
    let events = EventBus()
    let busy: BusyTracker
    /// `status` and the default `students`, ready to send; see `FastPathHandler`.
    let fastAnswers = FastAnswers()
    /// Told of every request and refresh; gives memory back after bursts, and once the daemon is quiet
    /// drops the geocoder's index too.
    let memoryTrimmer = MemoryTrimmer {
        OfflineGeocoder.unload()
        MemoryTrimmer.releaseIdleMemory()
    }
    let pinWriter = PinWriter()
    let geocoder: any Geocoding
    /// Kept to close its connection pool at shutdown.
    let nominatim: NominatimGeocoder?
    let notifier: SystemdNotifier
    let logger: Logger
    /// Settings SIGHUP may change.
    let live: LiveSettings
    /// Set once the socket accepts; the watchdog starts pinging only then.
    let readiness = Readiness()
    /// Signalled whenever the session changes (login, logout, end); `CacheRefresher` waits on it.
    let sessionChanged = WakeSignal()
    /// Signalled whenever the status line is sent for a change of state; `StatusLineService` waits on it.
    let statusLineChanged = WakeSignal()
    /// Whether the upstream answers `GET /session`; false once it said it has no such route.
    let sessionCheckSupported = NIOLockedValueBox(true)

    /// Creates the daemon; `load()` reads persisted state.
    public init(
        configuration: DaemonConfiguration, geocoder: (any Geocoding)? = nil,
        notifier: SystemdNotifier = SystemdNotifier(), logger: Logger
    ) {
        self.configuration = configuration
        self.api = OnTheMapAPIClient(configuration: APIConfiguration(baseURL: configuration.apiURL), logger: logger)
        let fastAnswers = self.fastAnswers
        let sessionChanged = self.sessionChanged
        self.sessions = SessionStore(path: configuration.paths.sessionFile, logger: logger) {
            fastAnswers.invalidate()
            sessionChanged.signal()
        }
        self.busy = BusyTracker(onChange: fastAnswers.invalidate)
        let interval = TimeInterval(configuration.refreshInterval.components.seconds)
        self.cache = StudentCache(
            path: configuration.paths.cacheFile, staleAfter: max(2 * interval, 60), logger: logger,
            onChange: fastAnswers.invalidate)
        switch (geocoder, configuration.geocoder) {
        case (let geocoder?, _):
            self.geocoder = geocoder
            self.nominatim = nil
        case (nil, .offline):
            self.geocoder = OfflineGeocoder()
            self.nominatim = nil
        case (nil, .nominatim(let url, let fallbackToOffline)):
            let nominatim = NominatimGeocoder(baseURL: url, logger: logger)
            self.nominatim = nominatim
            self.geocoder =
                fallbackToOffline
                ? FallbackGeocoder(primary: nominatim, fallback: OfflineGeocoder(), logger: logger) : nominatim
        }
        self.notifier = notifier
        self.logger = logger
        self.live = LiveSettings(configuration)
    }

    /// Loads the persisted session and student list, so clients get data at once after a restart.
    public func load() async {
        await sessions.load()
        if await sessions.current() != nil {
            await cache.load()
        } else {
            await cache.clear()
        }
    }

    /// Closes the HTTP client.
    public func shutdown() async {
        try? await api.shutdown()
        await nominatim?.shutdown()
    }
}
