import Foundation
import Hummingbird
import NIOCore
import NIOHTTP1
import OnTheMapModels

extension Request {
    /// Reads and decodes a JSON body, refusing oversized bodies (413), invalid UTF-8 and malformed
    /// JSON or wrong types (400, naming the field).
    func decodeJSONBody<T: Decodable>(_ type: T.Type, limit: Int) async throws -> T {
        let buffer = try await collectBody(limit: limit)
        let bytes = buffer.readableBytesView
        guard String(validating: bytes, as: UTF8.self) != nil else {
            throw APIFailure.badRequest("The request body is not valid UTF-8.")
        }
        do {
            return try WireCoding.decoder().decode(T.self, from: Data(bytes))
        } catch let error as DecodingError {
            throw APIFailure.badRequest(Self.explain(error))
        }
    }

    /// The whole body, refusing one sent as anything but JSON (415), one over `limit` bytes (413) and
    /// one that ends before its announced length (400: the client went away or lied; a client's
    /// doing, so no error is logged for it).
    func collectBody(limit: Int) async throws -> ByteBuffer {
        try requireJSONIfBodySent()
        do {
            return try await body.collect(upTo: limit)
        } catch let error where error is NIOTooManyBytesError || (error as? HTTPError)?.status == .contentTooLarge {
            throw APIFailure(.contentTooLarge, "The request body is larger than \(limit) bytes.")
        } catch is HTTPParserError {
            throw APIFailure.badRequest("The request ended before its body was complete.")
        }
    }

    /// Refuses a body whose `Content-Type` is not `application/json` (parameters such as `charset`
    /// aside), unread: a browser sends `text/plain` and form bodies from any page without asking the
    /// server first (no CORS preflight), so taking them as JSON let other sites post here. A body
    /// without a `Content-Type` is read as JSON, as every client of this API sends JSON.
    private func requireJSONIfBodySent() throws {
        let announced = headers[.contentLength].flatMap { Int($0) } ?? (headers[.transferEncoding] == nil ? 0 : 1)
        guard announced > 0, let type = headers[.contentType] else { return }
        let mediaType = type.split(separator: ";", maxSplits: 1).first?.trimmingWhitespace().lowercased() ?? ""
        guard mediaType != "application/json" else { return }
        throw APIFailure(
            .unsupportedMediaType,
            "The body must be JSON, sent with Content-Type: application/json (this request said \(mediaType.prefix(100))).")
    }

    private static func explain(_ error: DecodingError) -> String {
        func path(_ context: DecodingError.Context, _ last: (any CodingKey)? = nil) -> String {
            (context.codingPath + (last.map { [$0] } ?? [])).map(\.stringValue).joined(separator: ".")
        }
        switch error {
        case .keyNotFound(let key, let context):
            return "The field \(path(context, key)) is required."
        case .typeMismatch(let type, let context):
            return context.codingPath.isEmpty
                ? "The request body must be a JSON object."
                : "The field \(path(context)) must be \(describe(type))."
        case .valueNotFound(let type, let context):
            return "The field \(path(context)) must be \(describe(type)), not null."
        case .dataCorrupted(let context):
            return context.codingPath.isEmpty
                ? "The request body is not valid JSON." : "The field \(path(context)) is invalid."
        @unknown default:
            return "The request body is not valid."
        }
    }

    private static func describe(_ type: Any.Type) -> String {
        switch type {
        case is Double.Type, is Float.Type, is Int.Type: "a number"
        case is String.Type: "a string"
        case is Bool.Type: "true or false"
        default: "an object"
        }
    }
}
