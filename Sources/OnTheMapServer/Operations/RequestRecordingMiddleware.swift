import Hummingbird
import Prometheus

/// Records every request the router answers, in the per-request metrics and the access-log line:
/// outermost, so it sees each response in its final form, after `APIErrorMiddleware` turned errors
/// into bodies.
///
/// Recorded once the handler has answered: bodies here are built in memory, so sending them adds
/// little, and the record must not wait on a slow client.
struct RequestRecordingMiddleware: RouterMiddleware {
    typealias Context = ServerRequestContext
    /// Nil without a metrics backend (router-level tests).
    let metrics: RequestMetrics?
    /// Nil unless `--access-log` was given.
    let accessLog: AccessLog?

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response)
        async throws -> Response
    {
        metrics?.inProgress(request.method).increment()
        let time = accessLog.map { _ in AccessLog.timestamp() }
        let started = ContinuousClock.now
        // The route that answered (nil: none matched), the status and the body size. A status of 500
        // or more also counts as an error, however it was answered.
        var (status, bytes): (Int, Int?) = (500, nil)
        defer {
            let elapsed = ContinuousClock.now - started
            if let metrics {
                let series = metrics.series(route: context.endpointPath ?? "NotFound", method: request.method, status: status)
                series.requests.increment()
                series.duration.record(elapsed)
                series.errors?.increment()
                metrics.inProgress(request.method).decrement()
            }
            if let accessLog, let time {
                let (seconds, attoseconds) = elapsed.components
                accessLog.write(
                    AccessLog.Entry(
                        time: time, remote: context.clientAddress, method: request.method.rawValue,
                        path: AccessLog.cut(request.uri.path), route: context.endpointPath, status: status,
                        durationMs: ((Double(seconds) * 1000 + Double(attoseconds) / 1e15) * 1000).rounded() / 1000,
                        bytes: bytes, userAgent: request.headers[.userAgent].map { AccessLog.cut($0) }))
            }
        }
        do {
            let response = try await next(request, context)
            status = Int(response.status.code)
            bytes = response.body.contentLength ?? response.headers[.contentLength].flatMap { Int($0) }
            return response
        } catch {
            status = Int((error as? any HTTPResponseError)?.status.code ?? 500)
            throw error
        }
    }
}
