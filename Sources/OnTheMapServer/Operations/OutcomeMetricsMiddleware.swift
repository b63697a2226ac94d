import Hummingbird
import Metrics

/// Counts what the request counters alone do not tell apart: logins that succeeded or failed, and
/// requests refused with 429 by the login rate limits.
///
/// Reads only the response status, so the controllers stay unaware of metrics.
struct OutcomeMetricsMiddleware<Context: RequestContext>: RouterMiddleware {
    /// The path of the login endpoint (`POST`).
    let loginPath: String

    private let loginsOK = Counter(label: MetricNames.logins, dimensions: [("result", "ok")])
    private let loginsFailed = Counter(label: MetricNames.logins, dimensions: [("result", "failed")])
    private let rateLimited = Counter(label: MetricNames.rateLimited)

    init(loginPath: String) {
        self.loginPath = loginPath
    }

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response)
        async throws -> Response
    {
        let response = try await next(request, context)
        let status = response.status.code
        if status == 429 {
            rateLimited.increment()
        } else if request.method == .post, request.uri.path == loginPath {
            // A 4xx is a refused login (bad credentials, a malformed body); a 5xx says nothing about
            // the credentials and is left to the request counters.
            if (200..<300).contains(status) {
                loginsOK.increment()
            } else if (400..<500).contains(status) {
                loginsFailed.increment()
            }
        }
        return response
    }
}
