import Hummingbird
import Logging

/// Turns every error thrown below it into the API's error body, and logs server faults.
///
/// Endpoints under `/session` and `/users` carry the XSSI prefix on errors as on successes.
struct APIErrorMiddleware: RouterMiddleware {
    typealias Context = ServerRequestContext

    func handle(
        _ request: Request, context: Context, next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        do {
            return try await next(request, context)
        } catch let failure as APIFailure {
            return failure.response(prefixed: Self.isPrefixed(request.uri.path))
        } catch {
            let prefixed = Self.isPrefixed(request.uri.path)
            switch RequestFailure(classifying: error, path: request.uri.path, logger: context.logger) {
            case .unavailable:
                return APIFailure(
                    .serviceUnavailable, RequestFailure.unavailableMessage,
                    headers: [.retryAfter: RequestFailure.unavailableRetryAfter]
                ).response(prefixed: prefixed)
            case .accountHasPin(let message), .emailTaken(let message):
                return APIFailure(.conflict, message).response(prefixed: prefixed)
            case .http(let error):
                let message: String
                switch error.status {
                case .notFound: message = "There is no such endpoint: \(request.method) \(request.uri.path)."
                case .contentTooLarge: message = "The request body is too large."
                default: message = error.body ?? error.status.reasonPhrase
                }
                return APIFailure(error.status, message).response(prefixed: prefixed)
            case .unexpected:
                return APIFailure(.internalServerError, RequestFailure.unexpectedMessage).response(prefixed: prefixed)
            }
        }
    }

    static func isPrefixed(_ path: String) -> Bool {
        path.hasPrefix("/v1/session") || path.hasPrefix("/v1/users")
    }
}
