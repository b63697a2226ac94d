import Hummingbird
import Logging

/// The `Request` line at debug for every request, as Hummingbird's `LogRequestsMiddleware` writes it,
/// but with the path only, never the query string, which can hold a secret (`?access_token=…`,
/// Parse's `/login?password=…`). Not at info, the default level: a line per request cost a third of
/// the throughput, and the access log is the per-request record.
struct RequestLogMiddleware: RouterMiddleware {
    typealias Context = ServerRequestContext

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response)
        async throws -> Response
    {
        context.logger.debug(
            "Request",
            metadata: ["hb.request.path": .string(request.uri.path), "hb.request.method": .string(request.method.rawValue)])
        return try await next(request, context)
    }
}
