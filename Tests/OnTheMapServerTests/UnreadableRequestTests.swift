import Foundation
import OnTheMapTestSupport
import Testing

/// A request the HTTP decoder cannot read is answered in words, as every other error of the API
/// (`{"status","error"}`), over a real socket to the real server; the server goes on answering.
/// The deadlines only end a hung test.
@Suite("Requests the server cannot read", .ownThreads)
struct UnreadableRequestTests {
    /// The status line and the body of what the server answers to `request`.
    static func exchange(_ request: [UInt8], port: Int) throws -> (status: String, body: String, head: String) {
        let socket = try RawSocket(loopbackPort: port)
        socket.send(request, timeout: .seconds(30))
        let answer = String(decoding: socket.receiveAll(timeout: .seconds(30)), as: UTF8.self)
        let parts = answer.components(separatedBy: "\r\n\r\n")
        return (answer.components(separatedBy: "\r\n")[0], parts.dropFirst().joined(separator: "\r\n\r\n"), parts[0])
    }

    @Test func aHeadOverTheLimitIs431WithAMessage() async throws {
        let fixture = try ServerFixture()
        defer { fixture.tearDown() }
        let head = "GET /v1/StudentLocation HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Long: \(String(repeating: "a", count: 100_000))\r\n\r\n"
        let (status, body, answerHead) = try Self.exchange(Array(head.utf8), port: fixture.server.port)
        #expect(status == "HTTP/1.1 431 Request Header Fields Too Large")
        #expect(answerHead.lowercased().contains("\r\ncache-control: no-store"), "\(answerHead)")
        #expect(body.hasPrefix(#"{"status":431,"error":"The request's address and headers are longer than the server reads"#), "\(body)")
        let after = try Self.exchange(Array("GET /healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n".utf8), port: fixture.server.port)
        #expect(after.status == "HTTP/1.1 200 OK", "the server answers the next connection")
    }

    @Test func aMalformedRequestLineIs400WithAMessage() async throws {
        let fixture = try ServerFixture()
        defer { fixture.tearDown() }
        let (status, body, head) = try Self.exchange(Array("GET /v1 HTTP/1.1 extra\r\n\r\n".utf8), port: fixture.server.port)
        #expect(status == "HTTP/1.1 400 Bad Request")
        #expect(head.lowercased().contains("\r\ncache-control: no-store"), "\(head)")
        #expect(body == #"{"status":400,"error":"The request could not be read as HTTP/1.1; check the program that sent it."}"#)
    }
}
