import HTTPTypes
import Hummingbird

extension CachedList {
    /// The answer to a request that sent `ifNoneMatch` (the `If-None-Match` header): a bodiless
    /// `304 Not Modified` when it names this list, else the list; both carry the list's `ETag`.
    ///
    /// The one answer of both dialects' list routes.
    func response(ifNoneMatch: String?) -> Response {
        if EntityTag.ifNoneMatch(ifNoneMatch, matches: etag) {
            var response = Response(status: .notModified, headers: [.eTag: etag])
            // RFC 9110 §8.6: a 304's Content-Length may only be the length the 200 would have had;
            // Hummingbird sets 0 for the empty body.
            response.headers[.contentLength] = nil
            return response
        }
        var response = Response.json(bytes: body)
        response.headers[.eTag] = etag
        return response
    }
}
