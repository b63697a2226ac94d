import HTTPTypes
import Hummingbird
import Logging
import NIOCore
import OnTheMapModels

/// An error of the Parse-era dialect: `{"code":N,"error":"…"}` with Parse's codes.
struct ParseFailure: Error, Sendable {
    var status: HTTPResponse.Status
    var code: Int
    var message: String
    /// Extra response headers (e.g. `Retry-After`).
    var headers: HTTPFields = [:]

    static func objectNotFound(_ objectId: String) -> ParseFailure {
        ParseFailure(status: .notFound, code: 101, message: "Object not found: no StudentLocation has the objectId \(objectId).")
    }
    static func invalidQuery(_ message: String) -> ParseFailure {
        ParseFailure(status: .badRequest, code: 102, message: "invalid query: \(message)")
    }
    static func invalidJSON(_ message: String) -> ParseFailure {
        ParseFailure(status: .badRequest, code: 107, message: "invalid JSON: \(message)")
    }
    static func invalidType(_ message: String) -> ParseFailure {
        ParseFailure(status: .badRequest, code: 111, message: "invalid type: \(message)")
    }
    static func validation(_ message: String) -> ParseFailure {
        ParseFailure(status: .badRequest, code: 142, message: message)
    }
    static func forbidden(_ message: String) -> ParseFailure {
        ParseFailure(status: .forbidden, code: 119, message: message)
    }
    static func invalidSession(_ message: String) -> ParseFailure {
        ParseFailure(status: .badRequest, code: 209, message: "invalid session token: \(message)")
    }
    static func tooManyRequests(_ wait: Duration) -> ParseFailure {
        ParseFailure(
            status: .tooManyRequests, code: 155,
            message: "Too many login attempts. Try again in \(wait.components.seconds) seconds.",
            headers: [.retryAfter: "\(wait.components.seconds)"])
    }
    /// What Parse Server answers to a wrong or unknown username or password (a 404, as its 101s are).
    static let invalidLogin = ParseFailure(status: .notFound, code: 101, message: "Invalid username/password.")
    static let unauthorized = ParseFailure(
        status: .unauthorized, code: 119,
        message: "unauthorized: send the X-Parse-Application-Id and X-Parse-REST-API-Key this server expects")

    var response: Response {
        let body = WireJSON.object([("code", .integer(code)), ("error", .string(message))])
        var fields: HTTPFields = [.contentType: "application/json"]
        fields.append(contentsOf: headers)
        return Response(status: status, headers: fields, body: .init(byteBuffer: ByteBuffer(string: body.serialized)))
    }
}

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
            let code = failure.status == .contentTooLarge ? 107 : 142
            return ParseFailure(status: failure.status, code: code, message: failure.message).response
        } catch let error as StorageError where error.isUnavailable {
            // As on the Udacity paths: a refusal during a known outage at debug (the outage was
            // logged once, when found), anything else as an error.
            context.logger.log(
                level: StorageError.logLevel(for: error), "database unavailable",
                metadata: ["path": "\(request.uri.path)", "error": "\(error)"])
            var response = ParseFailure(status: .serviceUnavailable, code: 1, message: "The database is unavailable; try again in a few seconds.").response
            response.headers[.retryAfter] = "5"
            return response
        } catch let error as StorageError where error.isAccountHasPin {
            return ParseFailure(status: .conflict, code: 137, message: error.description).response
        } catch let error as HTTPError {
            return ParseFailure(status: error.status, code: 1, message: error.body ?? error.status.reasonPhrase).response
        } catch {
            context.logger.error("request failed", metadata: ["path": "\(request.uri.path)", "error": "\(error)"])
            return ParseFailure(status: .internalServerError, code: 1, message: "Internal server error; the server log has details.").response
        }
    }
}

/// The Parse application keys a request must carry.
public struct ParseKeys: Sendable, Hashable {
    /// The keys public On The Map clients send, accepted unless the server is given its own.
    public static let udacityApplicationID = "QrX47CA9cyuGewLdsL7o5Eb8iug6Em8ye0dnAbIr"
    public static let udacityRESTAPIKey = "QuWThTdiRmTux3YaDseUSEpUKo7aBYM737yKd4gY"

    public var applicationID: String
    public var restAPIKey: String

    public init(applicationID: String = udacityApplicationID, restAPIKey: String = udacityRESTAPIKey) {
        self.applicationID = applicationID
        self.restAPIKey = restAPIKey
    }

    func accepts(applicationID: String?, restAPIKey: String?) -> Bool {
        applicationID == self.applicationID && restAPIKey == self.restAPIKey
    }
}
