import OnTheMapModels
import Foundation
import Logging
import NIOConcurrencyHelpers
import OnTheMapAPI
import OnTheMapGeocoder
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
    /// `status` and the default `students`, serialized once per state version.
    let answers: PreparedAnswers
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
    /// Set once the socket accepts; the watchdog starts pinging only then.
    let readiness = Readiness()
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
        self.state = DaemonState(paths: configuration.paths, staleAfter: max(2 * interval, 60), logger: logger)
        self.answers = PreparedAnswers(version: Self.version, apiURL: configuration.apiURL)
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

    /// Closes the HTTP clients.
    public func shutdown() async {
        try? await api.shutdown()
        await nominatim?.shutdown()
    }
}
