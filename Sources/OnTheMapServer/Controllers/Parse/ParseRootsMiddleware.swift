import Hummingbird

/// Answers a request under a Parse root (`/1/…`, `/parse/…`) that no route matched in Parse's error
/// shape, `{"code":101,"error":…}` with a 404 (Parse Server's status for its code 101), instead of the
/// Udacity paths' `{"status":404,…}`: a Parse client reads `code`, and finds none in the other.
///
/// A route's own errors are `ParseMiddleware`'s; this sees only what reaches the router's not-found
/// answer, so it sits with the router's middleware, inside `APIErrorMiddleware`.
struct ParseRootsMiddleware: RouterMiddleware {
    typealias Context = ServerRequestContext

    /// The roots the Parse-era apps used: Parse.com's `/1` and Parse Server's default `/parse`.
    static let roots = ["1", "parse"]
    /// What the server offers under each root, for the not-found message.
    static let offered = ["classes/StudentLocation", "login", "logout", "users/me"]

    let roots: [String]

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response)
        async throws -> Response
    {
        do {
            return try await next(request, context)
        } catch let error as HTTPError where error.status == .notFound || error.status == .methodNotAllowed {
            let path = request.uri.path
            guard let root = roots.first(where: { path == "/\($0)" || path.hasPrefix("/\($0)/") }) else { throw error }
            let paths = Self.offered.map { "/\(root)/\($0)" }.joined(separator: ", ")
            return ParseFailure(
                status: .notFound, code: 101,
                message: "There is no such Parse endpoint: \(request.method) \(path). This server offers \(paths)."
            ).response
        }
    }
}
