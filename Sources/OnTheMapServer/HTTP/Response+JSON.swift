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
        var buffer = ByteBuffer()
        if prefixed { buffer.writeBytes(XSSIPrefix.bytes) }
        buffer.writeString(value.wireJSON.serialized)
        return Response(status: status, headers: [.contentType: "application/json"], body: .init(byteBuffer: buffer))
    }
}
