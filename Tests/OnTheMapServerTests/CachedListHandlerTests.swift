import HTTPTypes
import Logging
import NIOCore
import NIOEmbedded
import NIOHTTPTypes
import Testing

@testable import OnTheMapServer

/// Which requests one connection answers from the cache and which it leaves to the router, on an
/// embedded channel (the real-socket behaviour is in `CachedListShortcutTests`).
@Suite("The cached list's connection handler")
struct CachedListHandlerTests {
    /// A watch whose mark never moves: the stored answer stays current.
    struct NothingChanges: LocationChangeWatch {
        func mark() -> UInt64? { 7 }
    }

    static let query = "limit=100&order=-updatedAt"
    static let body = #"{"results":[]}"#

    static func channel() -> EmbeddedChannel {
        let cache = LocationListCache(changes: NothingChanges())
        cache.store(ByteBuffer(string: body), for: query, version: 1, mark: 7)
        let shortcut = CachedListShortcut(
            cache: cache, recorder: RequestRecorder(metrics: nil, accessLog: nil), logger: Logger(label: "test"),
            serverName: "onthemap-server")
        return EmbeddedChannel(handler: CachedListHandler(shortcut: shortcut))
    }

    static func request(
        _ method: HTTPRequest.Method = .get, _ path: String = "/v1/StudentLocation?\(query)", fields: HTTPFields = [:]
    ) -> HTTPRequest {
        HTTPRequest(method: method, scheme: "http", authority: "127.0.0.1", path: path, headerFields: fields)
    }

    /// Sends a whole request (head and end) in.
    static func send(_ request: HTTPRequest, to channel: EmbeddedChannel) throws {
        try channel.writeInbound(HTTPRequestPart.head(request))
        try channel.writeInbound(HTTPRequestPart.end(nil))
    }

    /// The request heads passed on to the router.
    static func passedOn(_ channel: EmbeddedChannel) throws -> [HTTPRequest] {
        var heads: [HTTPRequest] = []
        while let part = try channel.readInbound(as: HTTPRequestPart.self) {
            if case .head(let head) = part { heads.append(head) }
        }
        return heads
    }

    /// The response parts written by the handler itself.
    static func written(_ channel: EmbeddedChannel) throws -> [HTTPResponsePart] {
        var parts: [HTTPResponsePart] = []
        while let part = try channel.readOutbound(as: HTTPResponsePart.self) { parts.append(part) }
        return parts
    }

    @Test func aCachedListIsAnsweredOnTheConnection() throws {
        let channel = Self.channel()
        try Self.send(Self.request(), to: channel)
        #expect(try Self.passedOn(channel).isEmpty)
        let parts = try Self.written(channel)
        try #require(parts.count == 3)
        guard case .head(let head) = parts[0], case .body(let body) = parts[1], case .end(nil) = parts[2] else {
            Issue.record("not head, body, end: \(parts)")
            return
        }
        #expect(head.status == .ok)
        #expect(head.headerFields[.contentType] == "application/json")
        #expect(head.headerFields[.contentLength] == String(Self.body.utf8.count))
        #expect(head.headerFields[.server] == "onthemap-server")
        #expect(head.headerFields[.date] != nil)
        #expect(String(buffer: body) == Self.body)
    }

    /// A client that holds this list gets a bodiless 304 from the connection: no router, no storage
    /// (this channel has neither), so no query.
    @Test func aMatchingIfNoneMatchIsA304FromTheConnection() throws {
        let channel = Self.channel()
        let etag = CachedList(body: ByteBuffer(string: Self.body)).etag
        try Self.send(Self.request(fields: [.ifNoneMatch: etag]), to: channel)
        #expect(try Self.passedOn(channel).isEmpty)
        let parts = try Self.written(channel)
        try #require(parts.count == 2, "head and end, no body: \(parts)")
        guard case .head(let head) = parts[0], case .end(nil) = parts[1] else {
            Issue.record("not head, end: \(parts)")
            return
        }
        #expect(head.status == .notModified)
        #expect(head.headerFields[.eTag] == etag)
        #expect(head.headerFields[.contentLength] == nil)
        #expect(head.headerFields[.date] != nil)

        // Another tag: the list itself, with its tag.
        try Self.send(Self.request(fields: [.ifNoneMatch: #""0000""#]), to: channel)
        guard case .head(let full) = try Self.written(channel).first else {
            Issue.record("no answer")
            return
        }
        #expect(full.status == .ok)
        #expect(full.headerFields[.eTag] == etag)
    }

    @Test(arguments: [
        request(.post),
        request(.head),
        request(.get, "/v1/StudentLocation?limit=5"),
        request(.get, "/v1/StudentLocation/abc?\(query)"),
        request(.get, "/parse/classes/StudentLocation?\(query)"),
        request(.get, "/v1/StudentLocation?\(query)", fields: [.connection: "close"]),
    ])
    func everythingElseGoesToTheRouter(request: HTTPRequest) throws {
        let channel = Self.channel()
        try Self.send(request, to: channel)
        #expect(try Self.passedOn(channel).map(\.path) == [request.path])
        #expect(try Self.written(channel).isEmpty)
    }

    @Test func whileTheRouterOwesAnAnswerTheNextRequestWaitsItsTurn() throws {
        let channel = Self.channel()
        try Self.send(Self.request(.post), to: channel)
        try Self.send(Self.request(), to: channel)
        #expect(try Self.passedOn(channel).map(\.method) == [.post, .get])

        // The router answers both; only then is the cache used again.
        for _ in 0..<2 {
            try channel.writeOutbound(HTTPResponsePart.head(HTTPResponse(status: .ok)))
            try channel.writeOutbound(HTTPResponsePart.end(nil))
        }
        _ = try Self.written(channel)
        try Self.send(Self.request(), to: channel)
        #expect(try Self.passedOn(channel).isEmpty)
        #expect(try Self.written(channel).count == 3)
    }

    @Test func nothingAfterAConnectionCloseIsAnsweredHere() throws {
        let channel = Self.channel()
        try Self.send(Self.request(.get, "/v1/StudentLocation?limit=5", fields: [.connection: "close"]), to: channel)
        // The router answers it (and then closes); a request that still comes is not answered here.
        try channel.writeOutbound(HTTPResponsePart.head(HTTPResponse(status: .ok)))
        try channel.writeOutbound(HTTPResponsePart.end(nil))
        _ = try Self.written(channel)
        try Self.send(Self.request(), to: channel)
        #expect(try Self.passedOn(channel).count == 2)
        #expect(try Self.written(channel).isEmpty)
    }

    @Test func aGetsBodyIsReadAndDropped() throws {
        let channel = Self.channel()
        try channel.writeInbound(HTTPRequestPart.head(Self.request()))
        try channel.writeInbound(HTTPRequestPart.body(ByteBuffer(string: "ignored")))
        try channel.writeInbound(HTTPRequestPart.end(nil))
        #expect(try channel.readInbound(as: HTTPRequestPart.self) == nil)
        #expect(try Self.written(channel).count == 3)
        // The next request on the connection is read as a request.
        try Self.send(Self.request(.post), to: channel)
        #expect(try Self.passedOn(channel).map(\.method) == [.post])
    }

    @Test func aFullSocketLeavesTheRequestToTheRouter() throws {
        let channel = Self.channel()
        channel.isWritable = false
        try Self.send(Self.request(), to: channel)
        #expect(try Self.passedOn(channel).count == 1)
        #expect(try Self.written(channel).isEmpty)
    }
}
