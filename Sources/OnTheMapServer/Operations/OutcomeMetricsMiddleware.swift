import Hummingbird
import Prometheus

/// Counts what the request counters alone do not tell apart: logins that succeeded or failed (on
/// either dialect's login path), and requests refused with 429 by the login rate limits.
///
/// Reads only the response status, so the controllers stay unaware of metrics.
struct OutcomeMetricsMiddleware<Context: RequestContext>: RouterMiddleware {
    /// The login endpoints and their methods (`POST /v1/session`; Parse's `/login`, by GET or POST).
    let loginPaths: [String: Set<HTTPRequest.Method>]
    let metrics: ServerMetrics

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response)
        async throws -> Response
    {
        let response = try await next(request, context)
        let status = response.status.code
        if status == 429 {
            metrics.rateLimited.increment()
        } else if loginPaths[request.uri.path]?.contains(request.method) == true {
            // A 4xx is a refused login (bad credentials, a malformed body); a 5xx says nothing about
            // the credentials and is left to the request counters.
            if (200..<300).contains(status) {
                metrics.loginsOK.increment()
            } else if (400..<500).contains(status) {
                metrics.loginsFailed.increment()
            }
        }
        return response
    }
}
