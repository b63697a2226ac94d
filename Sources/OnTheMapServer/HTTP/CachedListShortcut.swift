import HTTPTypes
import Hummingbird
import HummingbirdCore
import Logging
import NIOCore

/// Answers `GET /v1/StudentLocation` from the cached list right where the connection reads it, without
/// the router, when the answer is in memory and known current (`LocationListCache.currentList`), or — when the client's `If-None-Match` names it —
/// a bodiless 304.
///
/// The newest pins are what every client asks for most, and the router's way costs more than the
/// answer: a task per request, a hand-off to Swift's pool and back, the middleware chain — 38–47 µs
/// of server CPU a request against 19–20 µs here (docs/benchmarks.md). Here the same bytes go out on
/// the event loop that read the request. Everything else, and any list not in memory, goes to the
/// router, which fills the cache. Both ways answer alike: the same status, headers and body
/// (`Response.json(bytes:)`, then the `Date` and `Server` headers that Hummingbird's `Application`
/// adds — `Date` read from the clock here, from a cache refreshed each second there), the same log
/// line, metrics and access-log line (`RequestRecorder`).
final class CachedListShortcut: Sendable {
    /// The path answered here; the route has no parameters, so it is also the route's name in the
    /// metrics and the access log.
    static let path = "/v1/StudentLocation"

    /// A request this shortcut answers, and its answer.
    struct Answer {
        let request: HTTPRequest
        let head: HTTPResponse
        let body: ByteBuffer
    }

    let cache: LocationListCache
    let recorder: RequestRecorder
    let logger: Logger
    let serverName: String?

    init(cache: LocationListCache, recorder: RequestRecorder, logger: Logger, serverName: String?) {
        self.cache = cache
        self.recorder = recorder
        self.logger = logger
        self.serverName = serverName
    }

    /// The answer to `request` when it can be given here; nil: leave it to the router. (Whether the
    /// connection lets it be given here — order, `Connection: close` — is `CachedListHandler`'s.)
    func answer(_ request: HTTPRequest) -> Answer? {
        guard request.method == .get, let target = request.path, target.hasPrefix(Self.path) else { return nil }
        // A client that takes gzip (a browser) gets it from the router (JSONGzipMiddleware).
        guard !WebController.acceptsGzip(request.headerFields[values: .acceptEncoding]) else { return nil }
        let uri = URI(target)
        guard uri.path == Self.path, let list = cache.currentList(for: uri.query ?? "") else { return nil }
        var head = list.response(ifNoneMatch: request.headerFields[.ifNoneMatch]).head
        let body = head.status == .notModified ? ByteBuffer() : list.body
        if head.status != .notModified { head.headerFields[.contentLength] = String(body.readableBytes) }
        head.headerFields[.date] = HTTPDate.now()
        if let serverName { head.headerFields[.server] = serverName }
        return Answer(request: request, head: head, body: body)
    }

    /// Sends `answer` through `send`, logged and recorded as the router's middleware would have.
    ///
    /// The log and access-log lines are written here on the event loop; the router's middleware
    /// writes them on Swift's pool, which has a thread per core: a log that stalls stalls work
    /// either way.
    func deliver(_ answer: Answer, remote: @autoclosure () -> SocketAddress?, send: () -> Void) {
        let method = answer.request.method
        if logger.logLevel <= .info {
            var logger = logger
            logger[metadataKey: "hb.request.id"] = .stringConvertible(RequestID())
            RequestRecorder.logRequestLine(logger, method: method, uri: Self.path)  // no query string
        }
        guard recorder.isRecording else { return send() }
        let recording = recorder.start(
            method: method, path: Self.path, remote: remote()?.ipAddress,
            userAgent: answer.request.headerFields[.userAgent])
        send()
        recorder.finish(
            recording, route: Self.path, status: Int(answer.head.status.code), bytes: answer.body.readableBytes)
    }
}
