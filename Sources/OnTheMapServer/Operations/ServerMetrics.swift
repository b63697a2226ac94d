import Metrics
import Prometheus

/// The server's metrics: swift-metrics, exported in Prometheus' text format by `GET /metrics`.
///
/// Request counts and latencies come from `RequestMetrics` (the series Hummingbird's `MetricsMiddleware`
/// records); logins and refusals from `OutcomeMetricsMiddleware`; pins and sessions are counted in the
/// database at each scrape.
public struct ServerMetrics: Sendable {
    /// Where every metric of the process is collected.
    let registry: PrometheusCollectorRegistry
    /// The per-request series.
    let requests = RequestMetrics()

    /// Makes Prometheus the process's metrics backend. `MetricsSystem` takes one backend per process,
    /// so `serve` calls this once; without it metrics are no-ops and `/metrics` is not routed.
    public static func bootstrap() -> ServerMetrics {
        let registry = PrometheusCollectorRegistry()
        var factory = PrometheusMetricsFactory(registry: registry)
        factory.nameAndLabelSanitizer = { name, labels in
            (MetricNames.prometheusName(for: name), labels.map { (MetricNames.prometheusLabel(for: $0.0), $0.1) })
        }
        MetricsSystem.bootstrap(factory)
        return ServerMetrics(registry: registry)
    }

    /// The exposition: refreshes the database gauges, then renders every metric.
    func exposition(counting probe: some DatabaseProbe) async throws -> String {
        let counts = try await probe.counts()
        Gauge(label: MetricNames.pins).record(counts.pins)
        Gauge(label: MetricNames.sessions).record(counts.activeSessions)
        return registry.emitToString()
    }
}

/// The names the metrics carry in Prometheus (`onthemap_…`, with units as Prometheus names them).
enum MetricNames {
    static let logins = "onthemap_logins_total"
    static let rateLimited = "onthemap_rate_limited_requests_total"
    static let pins = "onthemap_pins"
    static let sessions = "onthemap_sessions"

    /// The per-request labels (`RequestMetrics`, as Hummingbird names them), renamed; any other dotted
    /// name gets underscores.
    static func prometheusName(for label: String) -> String {
        switch label {
        case "hb.requests": "onthemap_http_requests_total"
        case "http.server.request.duration": "onthemap_http_request_duration_seconds"
        case "hb.request.errors": "onthemap_http_request_errors_total"
        case "http.server.active_requests": "onthemap_http_active_requests"
        default: label.replacingDots()
        }
    }

    /// `http.route` → `route`, `http.request.method` → `method`, `http.response.status_code` → `status`.
    static func prometheusLabel(for dimension: String) -> String {
        switch dimension {
        case "http.route": "route"
        case "http.request.method": "method"
        case "http.response.status_code": "status"
        case "error.type": "status"
        default: dimension.replacingDots()
        }
    }
}

extension String {
    fileprivate func replacingDots() -> String {
        String(map { $0 == "." ? "_" : $0 })
    }
}
