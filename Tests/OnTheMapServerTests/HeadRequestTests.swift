import Foundation
import OnTheMapTestSupport
import Testing

/// HEAD is answered for every GET route, as HTTP asks of a server (uptime monitors send it): the GET's
/// status and headers, no body, and the connection goes on; over a real socket to a real server.
@Suite("HEAD requests", .ownThreads)
struct HeadRequestTests {
    @Test(arguments: ["/v1/StudentLocation?limit=3", "/v1/StudentLocation?limit=100&order=-updatedAt", "/healthz"])
    func headIsTheGetWithoutItsBody(target: String) async throws {
        let fixture = try ServerFixture()
        defer { fixture.tearDown() }
        try fixture.seedDemo(count: 5)
        let socket = try RawSocket(loopbackPort: fixture.server.port)
        let request = { (method: String) in Array("\(method) \(target) HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".utf8) }

        let get = try #require(socket.exchange(request("GET")).first)
        #expect(get.status == 200)

        // HEAD, then a GET on the same connection: the second answer starts right after the first's head.
        socket.send(request("HEAD") + request("GET"), timeout: .seconds(10))
        let bytes = socket.receive(timeout: .seconds(20)) { received in
            guard let (_, end) = RawHTTPResponse.head(received[...]) else { return false }
            return !RawHTTPResponse.parseAll(Array(received[end...])).isEmpty
        }
        let (head, headEnd) = try #require(RawHTTPResponse.head(bytes[...]))
        #expect(head.status == 200)
        #expect(head.header("Content-Length") == String(get.body.count))
        #expect(head.header("Content-Type") == get.header("Content-Type"))
        let next = RawHTTPResponse.parseAll(Array(bytes[headEnd...]))
        #expect(next.first?.statusLine == get.statusLine, "no body between the HEAD answer and the next one")
        #expect(next.first?.body.count == get.body.count)
    }
}
