import Hummingbird

/// The `Request` line at debug for every request the router answers (`RequestRecorder.logRequestLine`):
/// the path only, never the query string, which can hold a secret (`?access_token=…`, Parse's
/// `/login?password=…`).
struct RequestLogMiddleware: RouterMiddleware {
    typealias Context = ServerRequestContext

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response)
        async throws -> Response
    {
        RequestRecorder.logRequestLine(context.logger, method: request.method, uri: request.uri.path)
        return try await next(request, context)
    }
}
