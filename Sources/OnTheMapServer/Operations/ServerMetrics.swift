import Foundation
import OnTheMapModels
import Prometheus

/// The server's metrics, exported in Prometheus' text format by `GET /metrics`.
///
/// Every family is made on swift-prometheus' registry with its help text, so the exposition has a
/// `# HELP` and a `# TYPE` line for each (the swift-metrics factory passes no help). Request counts,
/// latencies and errors come from `RequestMetrics`; logins and refusals from
/// `OutcomeMetricsMiddleware`; pins, sessions, the database's state and the process' own figures are
/// read at each scrape.
public struct ServerMetrics: Sendable {
    /// Where every metric of the server is collected.
    let registry: PrometheusCollectorRegistry
    /// The per-request series.
    let requests: RequestMetrics
    let loginsOK: Counter
    let loginsFailed: Counter
    let rateLimited: Counter
    let pins: Gauge
    let sessions: Gauge
    let databaseUp: Gauge
    let process: ProcessMetrics

    /// Makes the registry and the families that exist from the start.
    public init() {
        let registry = PrometheusCollectorRegistry()
        self.registry = registry
        requests = RequestMetrics(registry: registry)
        let logins = "POST /v1/session and Parse's /login answered: ok (2xx) or failed (4xx but 429)."
        let loginsDescriptor = MetricNameDescriptor(whole: MetricNames.logins, help: logins)
        loginsOK = registry.makeCounter(descriptor: loginsDescriptor, labels: [("result", "ok")])
        loginsFailed = registry.makeCounter(descriptor: loginsDescriptor, labels: [("result", "failed")])
        rateLimited = registry.makeCounter(
            descriptor: MetricNameDescriptor(
                whole: MetricNames.rateLimited, help: "Requests refused with 429 by the login attempt limits."))
        pins = registry.makeGauge(
            descriptor: MetricNameDescriptor(whole: MetricNames.pins, help: "Student locations stored, counted at each scrape."))
        sessions = registry.makeGauge(
            descriptor: MetricNameDescriptor(whole: MetricNames.sessions, help: "Sessions not yet expired, counted at each scrape."))
        databaseUp = registry.makeGauge(
            descriptor: MetricNameDescriptor(
                whole: MetricNames.databaseUp,
                help: "1 when the database answered this scrape's check and its last integrity check passed, else 0."))
        registry.makeGauge(
            descriptor: MetricNameDescriptor(
                whole: MetricNames.buildInfo, help: "Always 1; the version of onthemap-server is in the label."),
            labels: [("version", OnTheMapVersion.string)]
        ).set(1.0)
        process = ProcessMetrics(registry: registry)
    }

    /// The exposition: refreshes the gauges read at scrape time, then renders every family.
    ///
    /// Never fails for the database's sake: while it does not answer, `onthemap_database_up` is 0 and
    /// the pin and session gauges keep their last values (a scrape during an outage is when the
    /// other series matter most).
    func exposition(storage: any ServerStorage, integrity: IntegrityMonitor?) async -> String {
        let answers = (try? await AbandoningDeadline.run(Self.databaseCheckTimeout) { try await storage.ping() }) != nil
        databaseUp.set(answers && (integrity?.problems.isEmpty ?? true) ? 1.0 : 0.0)
        // Student locations stored, and sessions not yet expired.
        if answers, let counts = try? await AbandoningDeadline.run(Self.databaseCheckTimeout, {
            let now = Date()
            return (pins: try await storage.locationCount(), sessions: try await storage.allSessions(accountKey: nil).filter { $0.expiresAt > now }.count)
        }) {
            pins.set(Int64(counts.pins))
            sessions.set(Int64(counts.sessions))
        }
        process.refresh()
        return registry.emitToString()
    }

    /// How long a scrape waits for the database before reporting it down.
    static let databaseCheckTimeout: Duration = .seconds(2)
}

extension MetricNameDescriptor {
    /// A metric named whole, as Prometheus shows it (`onthemap_http_requests_total`): the names here
    /// are written out in `MetricNames` and docs/OPERATIONS.md, so a dashboard's name can be searched for.
    init(whole name: String, help: String) {
        self.init(metricName: name, unitName: "", helpText: help)
    }
}

/// The names the metrics carry in Prometheus (`onthemap_…`, with units as Prometheus names them).
enum MetricNames {
    static let requests = "onthemap_http_requests_total"
    static let requestDuration = "onthemap_http_request_duration_seconds"
    static let requestErrors = "onthemap_http_request_errors_total"
    static let activeRequests = "onthemap_http_active_requests"
    static let logins = "onthemap_logins_total"
    static let rateLimited = "onthemap_rate_limited_requests_total"
    static let pins = "onthemap_pins"
    static let sessions = "onthemap_sessions"
    static let databaseUp = "onthemap_database_up"
    static let buildInfo = "onthemap_build_info"
}
