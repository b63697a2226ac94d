import HTTPTypes
import Hummingbird

/// The Parse paths' front door: checks the application keys, then turns every error below it into
/// Parse's shape (the Udacity paths' `APIErrorMiddleware` sits outside and never sees these).
struct ParseMiddleware: RouterMiddleware {
    typealias Context = ServerRequestContext
    let keys: ParseKeys

    static let applicationID = HTTPField.Name("X-Parse-Application-Id")!
    static let restAPIKey = HTTPField.Name("X-Parse-REST-API-Key")!

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws
        -> Response
    {
        guard keys.accepts(applicationID: request.headers[Self.applicationID], restAPIKey: request.headers[Self.restAPIKey])
        else { return ParseFailure.unauthorized.response }
        do {
            return try await next(request, context)
        } catch let failure as ParseFailure {
            return failure.response
        } catch let failure as APIFailure {
            // Shared code (body size, validation) speaks the Udacity dialect; say it Parse's way.
            let code = [.contentTooLarge, .unsupportedMediaType].contains(failure.status) ? 107 : 142
            return ParseFailure(status: failure.status, code: code, message: failure.message).response
        } catch {
            switch RequestFailure(classifying: error, path: request.uri.path, logger: context.logger) {
            case .unavailable:
                return ParseFailure(
                    status: .serviceUnavailable, code: 1, message: RequestFailure.unavailableMessage,
                    headers: [.retryAfter: RequestFailure.unavailableRetryAfter]
                ).response
            case .accountHasPin(let message):
                return ParseFailure(status: .conflict, code: 137, message: message).response
            case .emailTaken(let message):
                // Parse Server's "Account already exists for this username."
                return ParseFailure(status: .badRequest, code: 202, message: message).response
            case .http(let error):
                return ParseFailure(status: error.status, code: 1, message: error.body ?? error.status.reasonPhrase).response
            case .unexpected:
                return ParseFailure(status: .internalServerError, code: 1, message: RequestFailure.unexpectedMessage).response
            }
        }
    }
}
