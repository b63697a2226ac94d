import HTTPTypes
import Hummingbird
import HummingbirdCore
import Logging
import NIOCore

/// Answers `GET /v1/StudentLocation` from the cached list right where the connection reads it, without
/// the router, when the answer is in memory and known current (`LocationListCache.currentBody`).
///
/// The newest pins are what every client asks for most, and the router's way costs more than the
/// answer: a task per request, a hand-off to Swift's pool and back, the middleware chain — 38–47 µs
/// of server CPU a request against 19–20 µs here (docs/benchmarks.md). Here the same bytes go out on
/// the event loop that read the request. Everything else, and any list not in memory, goes to the router, which fills the
/// cache. Both ways answer alike: the same status, headers and body (`Response.json(bytes:)`, the
/// `Date` and `Server` headers Hummingbird adds), the same log line, metrics and access-log line
/// (`RequestRecorder`).
final class CachedListShortcut: Sendable {
    static let path = "/v1/StudentLocation"
    static let route = "/v1/StudentLocation"

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

    /// The response to `request` when it can be answered here; nil: leave it to the router.
    ///
    /// `Connection: close` goes to the router, which closes the connection after answering.
    func response(to request: HTTPRequest) -> (head: HTTPResponse, body: ByteBuffer)? {
        guard request.method == .get, let target = request.path, target.hasPrefix(Self.path),
            request.headerFields[.connection] != "close"
        else { return nil }
        let uri = URI(target)
        guard uri.path == Self.path, let body = cache.currentBody(for: uri.query ?? "") else { return nil }
        var head = Response.json(bytes: body).head
        head.headerFields[.contentLength] = String(body.readableBytes)
        head.headerFields[.date] = HTTPDate.now()
        if let serverName { head.headerFields[.server] = serverName }
        return (head, body)
    }

    /// Logs and records a request answered here, as the router's middleware would have.
    func record(_ request: HTTPRequest, remote: SocketAddress?, bytes: Int, answer: () -> Void) {
        if logger.logLevel <= .info {
            var logger = logger
            logger[metadataKey: "hb.request.id"] = .stringConvertible(RequestID())
            RequestRecorder.logRequestLine(logger, method: request.method, uri: request.path ?? "")
        }
        guard recorder.isRecording else { return answer() }
        let recording = recorder.start(
            method: request.method, path: URI(request.path ?? "").path, remote: remote?.ipAddress,
            userAgent: request.headerFields[.userAgent])
        answer()
        recorder.finish(recording, route: Self.route, status: 200, bytes: bytes)
    }
}
