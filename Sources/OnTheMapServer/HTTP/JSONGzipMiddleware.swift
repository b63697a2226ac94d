import CompressNIO
import HTTPTypes
import Hummingbird
import NIOCore

/// gzip for the API's JSON answers to clients that accept it (`Accept-Encoding`): the lists the web
/// page downloads are 288 KB a thousand pins, and about a seventh of that gzipped.
///
/// Only what is worth it and safe: a `GET`'s `200` of JSON of at least `minimumBytes`, whose length
/// is known (the lists, a user's record), never one already encoded or negotiated (the page's files,
/// `Vary` already set, are gzipped once by `WebAssets`). Answers that carry a secret (a
/// session) are `POST`s or far smaller, so nothing secret is compressed beside text another person
/// wrote (BREACH). The gzip form's ETag is the list's made weak (`W/"…"`), as nginx does: the bytes
/// differ, the content is the same, and `If-None-Match` compares weakly, so a client polling with the
/// tag it was given still gets its `304` (which names the weak tag too). Compressed on the request's task, once per answer (level 6:
/// about 3 ms for 1,000 pins).
struct JSONGzipMiddleware: RouterMiddleware {
    typealias Context = ServerRequestContext

    /// Below this, gzip's header and a second buffer cost more than the bytes it saves.
    static let minimumBytes = 1024

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let response = try await next(request, context)
        guard request.method == .get, response.headers[.contentEncoding] == nil, response.headers[.vary] == nil,
            WebController.acceptsGzip(request.headers[values: .acceptEncoding])
        else { return response }
        var headers = response.headers
        var body = response.body
        if response.status != .notModified {
            guard response.status == .ok, headers[.contentType]?.hasPrefix("application/json") == true,
                let length = response.body.contentLength, length >= Self.minimumBytes
            else { return response }
            let collected = Collected()
            try await response.body.write(Collector(into: collected))
            var plain = collected.buffer
            guard let zipped = try? plain.compress(with: .gzip(configuration: .init(compressionLevel: 6))) else { return response }
            headers[.contentEncoding] = "gzip"
            headers[.contentLength] = nil
            body = .init(byteBuffer: zipped)
        }
        // A client that takes gzip holds the gzip form's tag: its 304 names that one.
        if let etag = headers[.eTag] { headers[.eTag] = EntityTag.gzipped(etag) }
        headers[.vary] = "Accept-Encoding"
        return Response(status: response.status, headers: headers, body: body)
    }
}

/// The bytes a response body writes, gathered. Written by one task, read after it finished.
private final class Collected: @unchecked Sendable {
    var buffer = ByteBuffer()
}

private struct Collector: ResponseBodyWriter {
    let into: Collected

    mutating func write(_ buffer: ByteBuffer) async throws {
        var buffer = buffer
        into.buffer.writeBuffer(&buffer)
    }

    consuming func finish(_ trailingHeaders: HTTPFields?) async throws {}
}
