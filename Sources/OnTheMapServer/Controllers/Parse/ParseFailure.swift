import HTTPTypes
import Hummingbird
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
    /// The wait once, in words, as `/v1/session` says it; `Retry-After` has the seconds.
    static func tooManyRequests(_ wait: Duration) -> ParseFailure {
        let refusal = TooManyRequests("login attempts", wait: Int(wait.components.seconds))
        return ParseFailure(status: .tooManyRequests, code: 155, message: refusal.message, headers: refusal.headers)
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
