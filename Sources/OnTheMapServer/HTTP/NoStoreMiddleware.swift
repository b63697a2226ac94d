import Hummingbird

/// `Cache-Control: no-store` on every answer of the API (`/v1/…` and the Parse paths), errors
/// included: `GET /v1/session` carries a session id, the lists carry people's names, and no cache
/// between a client and the server (nor the browser's) should keep either. Conditional requests
/// still work: a client keeps its own copy and `ETag`, and the server answers 304.
///
/// Outside `APIErrorMiddleware` and the Parse errors' own, so it sees each answer in its final form;
/// the web page's files and `/healthz` say their own.
struct NoStoreMiddleware: RouterMiddleware {
    typealias Context = ServerRequestContext

    /// Where the API's answers are: `/v1` and each Parse root.
    let prefixes: [String]

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response)
        async throws -> Response
    {
        var response = try await next(request, context)
        let path = request.uri.path
        if response.headers[.cacheControl] == nil,
            prefixes.contains(where: { path == $0 || path.hasPrefix($0 + "/") })
        {
            response.headers[.cacheControl] = "no-store"
        }
        return response
    }
}
