import HTTPTypes
import Metrics
import NIOConcurrencyHelpers

/// The per-request series of `/metrics`: requests by route, method and status, their duration, and
/// the requests in progress by method.
///
/// The same series (labels and all) Hummingbird's `MetricsMiddleware` records, made here so that the
/// requests answered from the cached list, which never reach the router, are counted in them too.
/// The metric objects are made once per label set and kept: making one asks the factory, under a lock.
final class RequestMetrics: Sendable {
    /// The series of one route, method and status.
    struct Series: Sendable {
        let requests: Counter
        let duration: Timer
        let errors: Counter
    }

    private struct SeriesKey: Hashable {
        let route: String
        let method: HTTPRequest.Method
        let status: Int
    }

    private let series = NIOLockedValueBox<[SeriesKey: Series]>([:])
    private let inProgress = NIOLockedValueBox<[HTTPRequest.Method: Meter]>([:])

    /// The gauge of requests in progress for `method`.
    func inProgress(_ method: HTTPRequest.Method) -> Meter {
        inProgress.withLockedValue { meters in
            if let meter = meters[method] { return meter }
            let meter = Meter(
                label: "http.server.active_requests", dimensions: [("http.request.method", method.rawValue)])
            meters[method] = meter
            return meter
        }
    }

    /// The series of `route`, `method` and `status`.
    func series(route: String, method: HTTPRequest.Method, status: Int) -> Series {
        let key = SeriesKey(route: route, method: method, status: status)
        return series.withLockedValue { all in
            if let found = all[key] { return found }
            let dimensions = [("http.route", route), ("http.request.method", method.rawValue)]
            let made = Series(
                requests: Counter(
                    label: "hb.requests", dimensions: dimensions + [("http.response.status_code", "\(status)")]),
                duration: Timer(
                    label: "http.server.request.duration",
                    dimensions: dimensions + [("http.response.status_code", "\(status)")],
                    preferredDisplayUnit: .seconds),
                errors: Counter(label: "hb.request.errors", dimensions: dimensions + [("error.type", "\(status)")]))
            all[key] = made
            return made
        }
    }
}
