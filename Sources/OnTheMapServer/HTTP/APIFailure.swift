import Foundation
import HTTPTypes
import Hummingbird
import OnTheMapModels

/// An error answered as the API answers errors: `{"status":N,"error":"…"}` with that HTTP status.
///
/// Every failure, ours or Hummingbird's, becomes one of these in `APIErrorMiddleware`: the single place
/// where errors turn into bytes.
struct APIFailure: Error, Sendable {
    var status: HTTPResponse.Status
    /// For a person: what happened and what to do.
    var message: String
    /// Extra response headers (e.g. `Retry-After`).
    var headers: HTTPFields

    init(_ status: HTTPResponse.Status, _ message: String, headers: HTTPFields = [:]) {
        self.status = status
        self.message = message
        self.headers = headers
    }

    static func badRequest(_ message: String) -> APIFailure { APIFailure(.badRequest, message) }

    /// The response, with the XSSI prefix when the endpoint's successes carry it too.
    func response(prefixed: Bool) -> Response {
        var response = Response.json(APIErrorBody(status: Int(status.code), error: message), status: status, prefixed: prefixed)
        for field in headers { response.headers.append(field) }
        return response
    }
}
