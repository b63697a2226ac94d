import HTTPTypes
import Hummingbird
import NIOCore
import OnTheMapModels

extension Response {
    /// A JSON response in the API's exact bytes: fixed key order, `/` unescaped, and for `/session`
    /// and `/users` the 5-byte XSSI prefix.
    static func json(
        _ value: some WireJSONRepresentable, status: HTTPResponse.Status = .ok, prefixed: Bool = false
    ) -> Response {
        json(bytes: jsonBytes(value, prefixed: prefixed), status: status)
    }

    /// A JSON response of a `Codable` value as `WireCoding` writes it (sorted keys, ms timestamps).
    static func json(encoding value: some Encodable, status: HTTPResponse.Status = .ok) throws -> Response {
        json(bytes: ByteBuffer(bytes: try WireCoding.encode(value)), status: status)
    }

    /// A JSON response from bytes already encoded.
    static func json(bytes: ByteBuffer, status: HTTPResponse.Status = .ok) -> Response {
        Response(status: status, headers: [.contentType: "application/json"], body: .init(byteBuffer: bytes))
    }

    /// The exact bytes of a JSON body.
    static func jsonBytes(_ value: some WireJSONRepresentable, prefixed: Bool = false) -> ByteBuffer {
        var buffer = ByteBuffer()
        if prefixed { buffer.writeBytes(XSSIPrefix.bytes) }
        buffer.writeString(value.wireJSON.serialized)
        return buffer
    }
}
