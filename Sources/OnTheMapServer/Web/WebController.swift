import Foundation
import HTTPTypes
import Hummingbird
import NIOCore

/// `GET /` (and `/index.html`, its service worker `/sw.js`, its `/manifest.webmanifest`, and the files
/// they name under `/assets/VERSION/`): the web page, from `WebAssets`.
///
/// Every answer carries a strict Content-Security-Policy (the page's script and style are files of
/// its own origin: no inline code runs, whatever a student's name holds; no `<base>` may move its
/// relative addresses, and no form may send its fields anywhere: the page posts them itself),
/// `nosniff`, and no Referer to the sites students link to. Files go gzipped to clients that accept it; the page is
/// revalidated on each load (ETag, 304), the files it names by version are kept for good.
struct WebController: Sendable {
    let assets: WebAssets

    /// The headers on every answer of the page's.
    static let policy: HTTPFields = [
        .contentSecurityPolicy: "default-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
        .xContentTypeOptions: "nosniff",
        HTTPField.Name("Referrer-Policy")!: "no-referrer",
    ]

    func addRoutes(to router: Router<ServerRequestContext>) {
        for path in ["/", "index.html", "sw.js", "manifest.webmanifest", "assets/**"] {
            router.get(RouterPath(path), use: serve)
        }
    }

    @Sendable func serve(_ request: Request, context: ServerRequestContext) async throws -> Response {
        guard let file = assets.file(at: request.uri.path) else { throw HTTPError(.notFound) }
        let gzip = file.gzipped != nil && Self.acceptsGzip(request.headers[values: .acceptEncoding])
        var headers = Self.policy
        headers[.contentType] = file.contentType
        headers[.eTag] = gzip ? EntityTag.gzipped(file.etag) : file.etag
        headers[.vary] = "Accept-Encoding"
        headers[.cacheControl] = file.immutable ? "public, max-age=31536000, immutable" : "no-cache"
        if EntityTag.ifNoneMatch(request.headers[values: .ifNoneMatch].joined(separator: ","), matches: file.etag) {
            return Response(status: .notModified, headers: headers)
        }
        if gzip { headers[.contentEncoding] = "gzip" }
        return Response(status: .ok, headers: headers, body: .init(byteBuffer: gzip ? file.gzipped! : file.body))
    }

    /// Whether `Accept-Encoding` takes gzip: named (or `*`) without `q=0`.
    static func acceptsGzip(_ values: [String]) -> Bool {
        for value in values {
            for part in value.split(separator: ",") {
                let pieces = part.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
                guard let coding = pieces.first, coding == "gzip" || coding == "x-gzip" || coding == "*" else { continue }
                let refused = pieces.dropFirst().contains { $0.replacingOccurrences(of: " ", with: "").hasPrefix("q=0")
                    && Double($0.dropFirst(2)) == 0 }
                if !refused { return true }
            }
        }
        return false
    }
}
