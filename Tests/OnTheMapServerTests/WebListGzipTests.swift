import Foundation
import OnTheMapTestSupport
import Testing

/// The API's JSON lists gzipped for clients that accept it (issue 41: the web page's 288 KB pages),
/// on the real server over a real socket: the same bytes once unzipped, a weak tag that still gets a
/// 304, and nothing changed for a client that does not ask (the daemon).
@Suite("The lists, gzipped when asked", .ownThreads)
struct WebListGzipTests {
    static let page = "/v1/StudentLocation?limit=1000&order=-updatedAt"

    static func gunzip(_ bytes: [UInt8]) throws -> [UInt8] {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        try Data(bytes).write(to: URL(fileURLWithPath: directory.file("body.gz")))
        let result = try runCommand("/bin/gzip", ["-dc", directory.file("body.gz")])
        #expect(result.status == 0, "\(result.stderr)")
        return Array(result.stdout.utf8)
    }

    @Test func aListIsGzippedForAClientThatAcceptsItAndTheSameOnceUnzipped() async throws {
        let fixture = try ServerFixture()
        defer { fixture.tearDown() }
        try fixture.seedDemo(count: 1000)
        let socket = try RawSocket(loopbackPort: fixture.server.port)
        // Twice each way: the first encoded for the request, the next from the list cache.
        var plain: [RawHTTPResponse] = []
        var zipped: [RawHTTPResponse] = []
        for _ in 0..<2 {
            plain += socket.exchange(NewestListRouteTests.get(Self.page))
            zipped += socket.exchange(NewestListRouteTests.get(Self.page, headers: "Accept-Encoding: gzip, deflate, br\r\n"))
        }
        let etag = try #require(plain.first?.header("ETag"))
        // The weak tag gets a 304, as the strong one does; gzip refused, or a small answer: as it was.
        // (Every exchange first: a connection left idle while gzip runs below may be closed.)
        let again = socket.exchange(
            NewestListRouteTests.get(Self.page, headers: "Accept-Encoding: gzip\r\nIf-None-Match: W/\(etag)\r\n"))
        let refused = socket.exchange(NewestListRouteTests.get(Self.page, headers: "Accept-Encoding: gzip;q=0, identity\r\n"))
        let small = socket.exchange(
            NewestListRouteTests.get("/v1/StudentLocation?limit=1", headers: "Accept-Encoding: gzip\r\n"))
        #expect(plain.count == 2 && zipped.count == 2)
        for answer in plain {
            #expect(answer.status == 200 && answer.header("Content-Encoding") == nil && answer.header("ETag") == etag)
        }
        for answer in zipped {
            #expect(answer.status == 200 && answer.header("Content-Encoding") == "gzip", "\(answer.headers)")
            #expect(answer.header("Vary") == "Accept-Encoding")
            #expect(answer.header("ETag") == "W/" + etag, "the list's tag, made weak")
            #expect(answer.body.count < plain[0].body.count / 4, "\(answer.body.count) of \(plain[0].body.count) bytes")
            #expect(try Self.gunzip(answer.body) == plain[0].body, "the same list once unzipped")
        }
        #expect(again.first?.status == 304 && again.first?.body.isEmpty == true && again.first?.header("ETag") == "W/" + etag)
        #expect(refused.first?.header("Content-Encoding") == nil && refused.first?.body == plain[0].body)
        #expect(small.first?.status == 200 && small.first?.header("Content-Encoding") == nil)
    }
}
