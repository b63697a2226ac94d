import HTTPTypes
import NIOConcurrencyHelpers
import Prometheus

/// The per-request series of `/metrics`: requests by route, method and status, their duration, the
/// server errors among them, and the requests in progress by method.
///
/// Made here rather than by Hummingbird's `MetricsMiddleware`, whose error counter counts thrown
/// errors: here `APIErrorMiddleware` turns every error into an answer first, so a 503 of an outage
/// would count as none. These count answers by status, under the names and labels docs/OPERATIONS.md
/// gives. The metric objects are made once per label set and kept: making one asks the registry,
/// under its lock.
final class RequestMetrics: Sendable {
    /// The series of one route, method and status.
    struct Series: Sendable {
        let requests: Counter
        let duration: DurationHistogram
        /// For a status of 500 or more only: what `onthemap_http_request_errors_total` counts.
        let errors: Counter?
    }

    private struct SeriesKey: Hashable {
        let route: String
        let method: HTTPRequest.Method
        let status: Int
    }

    /// The buckets of the duration histogram, 5 ms … 10 s.
    static let buckets: [Duration] = [
        .milliseconds(5), .milliseconds(10), .milliseconds(25), .milliseconds(50), .milliseconds(100),
        .milliseconds(250), .milliseconds(500), .seconds(1), .milliseconds(2500), .seconds(5), .seconds(10),
    ]

    private let registry: PrometheusCollectorRegistry
    private let series = NIOLockedValueBox<[SeriesKey: Series]>([:])
    private let inProgress = NIOLockedValueBox<[HTTPRequest.Method: Gauge]>([:])

    init(registry: PrometheusCollectorRegistry) {
        self.registry = registry
    }

    /// The gauge of requests in progress for `method`.
    func inProgress(_ method: HTTPRequest.Method) -> Gauge {
        inProgress.withLockedValue { gauges in
            if let gauge = gauges[method] { return gauge }
            let gauge = registry.makeGauge(
                descriptor: MetricNameDescriptor(whole: MetricNames.activeRequests, help: "Requests being answered now, by method."),
                labels: [("method", method.rawValue)])
            gauges[method] = gauge
            return gauge
        }
    }

    /// The series of `route`, `method` and `status`.
    func series(route: String, method: HTTPRequest.Method, status: Int) -> Series {
        let key = SeriesKey(route: route, method: method, status: status)
        return series.withLockedValue { all in
            if let found = all[key] { return found }
            let labels = [("route", route), ("method", method.rawValue), ("status", "\(status)")]
            let made = Series(
                requests: registry.makeCounter(
                    descriptor: MetricNameDescriptor(
                        whole: MetricNames.requests, help: "Requests answered, by matched route (NotFound for none), method and status."),
                    labels: labels),
                duration: registry.makeDurationHistogram(
                    descriptor: MetricNameDescriptor(
                        whole: MetricNames.requestDuration, help: "Time from a request read to its answer handed to the connection."),
                    labels: labels, buckets: Self.buckets),
                errors: status >= 500
                    ? registry.makeCounter(
                        descriptor: MetricNameDescriptor(
                            whole: MetricNames.requestErrors,
                            help: "Requests answered with a server error (5xx), 503 refusals while the database is out included."),
                        labels: labels)
                    : nil)
            all[key] = made
            return made
        }
    }
}
