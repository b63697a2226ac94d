import Dispatch
import FoundationEssentials
import Logging
import NIOConcurrencyHelpers
import OnTheMapAPI
import OnTheMapGeocoder
import OnTheMapModels
import OnTheMapRPC
import OnTheMapSystemd

/// The daemon: its one state (`DaemonState`), the parts it talks to (the API, the geocoder,
/// systemd), and the operations RPC methods call (in `Daemon+…` files). Holds references only.
public final class Daemon: Sendable {
    public let configuration: DaemonConfiguration
    let api: OnTheMapAPIClient
    /// Session, students, your pin, busy, last error: the one owner of state, and its change feed.
    let state: DaemonState
    /// The connections subscribed to notifications.
    let subscribers = Subscribers()
    /// When the daemon started, for `status.uptime`.
    let startedAt = ContinuousClock.now
    /// Gives memory back after bursts of connections, and drops the geocoder's index once unused.
    let memoryTrimmer = MemoryTrimmer()
    let pinWriter = PinWriter()
    let geocoder: any Geocoding
    /// Kept to close its connection pool at shutdown.
    let nominatim: NominatimGeocoder?
    let notifier: SystemdNotifier
    let logger: Logger
    /// Settings SIGHUP may change.
    let live: LiveSettings
    /// Whether the upstream answers `GET /session`; false once it said it has no such route.
    let sessionCheckSupported = NIOLockedValueBox(true)

    /// Creates the daemon; `load()` reads persisted state.
    public init(
        configuration: DaemonConfiguration, geocoder: (any Geocoding)? = nil,
        notifier: SystemdNotifier = SystemdNotifier(), logger: Logger
    ) {
        self.configuration = configuration
        self.api = OnTheMapAPIClient(configuration: APIConfiguration(baseURL: configuration.apiURL), logger: logger)
        let interval = TimeInterval(configuration.refreshInterval.components.seconds)
        self.state = DaemonState(
            // Named without user info: the URL goes into the session file and the log.
            paths: configuration.paths, apiURL: APIConfiguration.withoutUserInfo(configuration.apiURL),
            staleAfter: max(2 * interval, 60), logger: logger)
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

    /// The daemon's version, as `status` reports it.
    public static let version = OnTheMapVersion.string

    /// Loads the persisted session and student list, so clients get data at once after a restart.
    public func load() async {
        await state.load()
    }

    /// Where work that takes CPU time runs (a search over the list, encoding or building a list,
    /// drawing a map, geocoding): one thread of its own, off the event loops that run every
    /// connection and the state actor, so such work never holds up another client's `status`. Each
    /// connection has one request at work at a time, and the queue takes work in the order it comes,
    /// so clients take turns: one client's batch of searches waits behind another's one search, not
    /// the other way round. A serial queue: see `DispatchQueue.perform` for why. Clients' work goes
    /// through `clientWork`.
    static let work = DispatchQueue(label: "onthemap.work")

    /// Clients' share of `work`: bounded, and dropped for a client that has gone (`ClientWork`).
    static let clientWork = ClientWork(on: work)

    /// Closes the HTTP clients, and returns once the state files asked for are written.
    public func shutdown() async {
        try? await api.shutdown()
        await nominatim?.shutdown()
        await PrivateFile.finishWrites()
    }
}
