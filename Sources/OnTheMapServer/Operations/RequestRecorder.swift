import Foundation
import HTTPTypes
import Hummingbird
import Logging
import Prometheus

/// What the server records of each request it answers: the per-request metrics and the access-log
/// line, written by the router's outermost middleware (`RequestRecordingMiddleware`).
struct RequestRecorder: Sendable {
    /// Nil without a metrics backend (router-level tests).
    let metrics: RequestMetrics?
    /// Nil unless `--access-log` was given.
    let accessLog: AccessLog?

    /// Whether there is anything to record.
    var isRecording: Bool { metrics != nil || accessLog != nil }

    /// A request between `start` and `finish`.
    struct Recording {
        fileprivate let started: ContinuousClock.Instant
        fileprivate let method: HTTPRequest.Method
        fileprivate var entry: AccessLog.Entry?
    }

    /// Notes a request as it starts: `path` without its query, `remote` the peer's address.
    func start(method: HTTPRequest.Method, path: String, remote: String?, userAgent: String?) -> Recording {
        metrics?.inProgress(method).increment()
        let entry = accessLog.map { _ in
            AccessLog.Entry(
                time: AccessLog.timestamp(), remote: remote, method: method.rawValue, path: AccessLog.cut(path), route: nil,
                status: 0, durationMs: 0, bytes: nil, userAgent: userAgent.map { AccessLog.cut($0) })
        }
        return Recording(started: .now, method: method, entry: entry)
    }

    /// Records how a request ended: the route that answered it (nil: none matched), its status and
    /// body size; `thrown` when it ended in an error rather than a response. A status of 500 or more
    /// also counts as an error, however it was answered.
    func finish(_ recording: Recording, route: String?, status: Int, bytes: Int?, thrown: Bool = false) {
        let elapsed = ContinuousClock.now - recording.started
        if let metrics {
            let series = metrics.series(route: route ?? "NotFound", method: recording.method, status: status)
            series.requests.increment()
            series.duration.recordNanoseconds(
                Int64(elapsed.components.seconds) * 1_000_000_000 + elapsed.components.attoseconds / 1_000_000_000)
            series.errors?.increment()
            metrics.inProgress(recording.method).decrement()
        }
        if let accessLog, var entry = recording.entry {
            entry.status = status
            entry.route = route
            entry.bytes = bytes
            entry.durationMs = Self.milliseconds(elapsed)
            accessLog.write(entry)
        }
    }

    private static func milliseconds(_ duration: Duration) -> Double {
        let (seconds, attoseconds) = duration.components
        return ((Double(seconds) * 1000 + Double(attoseconds) / 1e15) * 1000).rounded() / 1000
    }
}
