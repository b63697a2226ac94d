import Foundation
import NIOHTTP1
import OnTheMapTestSupport
import Testing

/// The lists daemons poll answer a strong `ETag` and a bodiless `304` to an `If-None-Match` that
/// names it, on the Udacity path (made from the database and from memory alike) and the Parse path.
@Suite("Conditional GETs of the lists: ETag and 304", .ownThreads)
struct ListETagTests {
    static let newest = "/StudentLocation?limit=100&order=-updatedAt"

    @Test func theNewestListIsNotModifiedUntilAPinChanges() async throws {
        let fixture = try ServerFixture(arguments: ["--open-writes"])
        defer { fixture.tearDown() }
        try fixture.seedDemo(count: 10)
        let url = fixture.baseURL + Self.newest

        let first = try await ServerHTTP.send(.GET, url)
        let etag = try #require(first.headers["ETag"].first)
        // Weak when gzipped (AsyncHTTPClient asks for gzip): the list's tag, JSONGzipMiddleware.
        #expect(etag.wholeMatch(of: /(W\/)?"[0-9a-f]{32}"/) != nil, "the list's tag: \(etag)")
        #expect(try await ServerHTTP.send(.GET, url).headers["ETag"].first == etag, "the cached answer, the same tag")

        let strong = etag.hasPrefix("W/") ? String(etag.dropFirst(2)) : etag
        for header in [strong, "W/\(strong)", #""other", \#(strong)"#, "*"] {
            let reply = try await ServerHTTP.send(.GET, url, headers: [("If-None-Match", header)])
            #expect(reply.status == 304, "If-None-Match: \(header)")
            #expect(reply.body.isEmpty)
            #expect(reply.headers["ETag"].first == etag)
        }
        for header in [#""other""#, "not a tag", ""] {
            let reply = try await ServerHTTP.send(.GET, url, headers: [("If-None-Match", header)])
            #expect(reply.status == 200 && reply.body == first.body, "If-None-Match: \(header)")
        }
        // Another query has a tag of its own.
        let fewer = try await ServerHTTP.send(.GET, fixture.baseURL + "/StudentLocation?limit=5", headers: [("If-None-Match", etag)])
        #expect(fewer.status == 200)
        #expect(fewer.headers["ETag"].first != etag)

        let posted = try await ServerHTTP.send(.POST, fixture.baseURL + "/StudentLocation", body: ServerHTTP.pin("new"))
        #expect(posted.status == 201)
        let after = try await ServerHTTP.send(.GET, url, headers: [("If-None-Match", etag)])
        #expect(after.status == 200, "a pin changed")
        #expect(after.body.contains(try #require(posted.json["objectId"] as? String)))
        let newTag = try #require(after.headers["ETag"].first)
        #expect(newTag != etag)
        #expect(try await ServerHTTP.send(.GET, url, headers: [("If-None-Match", newTag)]).status == 304)
    }

    /// The 304 answered from memory and the one made after a database read carry the same tag, as
    /// their 200s carry the same bytes; a 304 has no body and the connection stays usable.
    @Test func theCachedAndTheFreshAnswersAgree() async throws {
        let fixture = try ServerFixture()
        defer { fixture.tearDown() }
        try fixture.seedDemo(count: 5)
        let socket = try RawSocket(loopbackPort: fixture.server.port)
        let target = "/v1" + Self.newest
        // The first answer is made from the database; the next comes from memory.
        let made = try #require(socket.exchange(NewestListRouteTests.get(target)).first)
        let cached = try #require(socket.exchange(NewestListRouteTests.get(target)).first)
        let etag = try #require(made.header("ETag"))
        #expect(cached.header("ETag") == etag)
        let conditional = socket.exchange(NewestListRouteTests.get(target, headers: "If-None-Match: \(etag)\r\n"))
        #expect(conditional.map(\.status) == [304])
        #expect(conditional.first?.body.isEmpty == true)
        #expect(conditional.first?.header("ETag") == etag)
        #expect(conditional.first?.header("Content-Length") == nil, "a 304 has no body length of its own")
        // Another query's 304 is alike.
        let other = "/v1/StudentLocation?limit=3"
        let otherTag = try #require(socket.exchange(NewestListRouteTests.get(other)).first?.header("ETag"))
        let routed = try #require(socket.exchange(NewestListRouteTests.get(other, headers: "If-None-Match: \(otherTag)\r\n")).first)
        #expect(routed.status == 304 && routed.body.isEmpty && routed.header("Content-Length") == nil, "\(routed.headers)")
        #expect(socket.exchange(NewestListRouteTests.get(target)).map(\.status) == [200], "the connection goes on")
    }

    @Test func theParseListToo() async throws {
        let fixture = try ServerFixture(arguments: ["--open-writes"])
        defer { fixture.tearDown() }
        try fixture.seedDemo(count: 10)
        let root = String(fixture.baseURL.dropLast("/v1".count))
        let url = root + "/parse/classes/StudentLocation?limit=5&order=-updatedAt&count=1"
        let headers = ServerHTTP.parseHeaders()
        let first = try await ServerHTTP.send(.GET, url, headers: headers)
        #expect(first.status == 200)
        #expect(first.json["count"] as? Int == 10)
        let etag = try #require(first.headers["ETag"].first)
        let again = try await ServerHTTP.send(.GET, url, headers: headers + [("If-None-Match", etag)])
        #expect(again.status == 304 && again.body.isEmpty)
        // The Udacity list with the same query string is another list, with another tag.
        let udacity = try await ServerHTTP.send(.GET, fixture.baseURL + "/StudentLocation?limit=5&order=-updatedAt&count=1")
        #expect(udacity.headers["ETag"].first != etag)

        _ = try await ServerHTTP.send(.POST, root + "/1/classes/StudentLocation", body: ServerHTTP.pin("parse"), headers: headers)
        let after = try await ServerHTTP.send(.GET, url, headers: headers + [("If-None-Match", etag)])
        #expect(after.status == 200)
        #expect(after.json["count"] as? Int == 11)
        #expect(after.headers["ETag"].first != etag)
    }
}
