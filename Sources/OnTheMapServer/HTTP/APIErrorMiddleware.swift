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
        } catch let error as StorageError where error.isUnavailable {
            context.logger.log(
                level: StorageError.logLevel(for: error), "database unavailable",
                metadata: ["path": "\(request.uri.path)", "error": "\(error)"])
            return APIFailure(
                .serviceUnavailable, "The database is unavailable; try again in a few seconds.",
                headers: [.retryAfter: "5"]
            ).response(prefixed: Self.isPrefixed(request.uri.path))
        } catch let error as StorageError where error.isAccountHasPin || error.isEmailTaken {
            return APIFailure(.conflict, error.description).response(prefixed: Self.isPrefixed(request.uri.path))
        } catch let error as HTTPError {
            let message: String
            switch error.status {
            case .notFound: message = "There is no such endpoint: \(request.method) \(request.uri.path)."
            case .contentTooLarge: message = "The request body is too large."
            default: message = error.body ?? error.status.reasonPhrase
            }
            return APIFailure(error.status, message).response(prefixed: Self.isPrefixed(request.uri.path))
        } catch {
            context.logger.error("request failed", metadata: ["path": "\(request.uri.path)", "error": "\(error)"])
            return APIFailure(.internalServerError, "Internal server error; the server log has details.")
                .response(prefixed: Self.isPrefixed(request.uri.path))
        }
    }

    static func isPrefixed(_ path: String) -> Bool {
        path.hasPrefix("/v1/session") || path.hasPrefix("/v1/users")
    }
}
