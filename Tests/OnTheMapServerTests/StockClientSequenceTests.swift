import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1
import OnTheMapModels
import OnTheMapServer
import OnTheMapTestSupport
import Testing

/// Speaks to the server as a stock course client does: raw HTTP, no knowledge of our client library.
private struct StockClient {
    let baseURL: String
    let http = HTTPClient.shared
    var transcript = GoldenTranscript()
    var cookies: [String: String] = [:]

    struct Reply {
        var status: Int
        var bytes: [UInt8]
        var json: [String: Any]
    }

    mutating func send(_ method: HTTPMethod, _ path: String, body: String? = nil, headers: [(String, String)] = [])
        async throws -> Reply
    {
        var request = HTTPClientRequest(url: baseURL + path)
        request.method = method
        request.headers.add(name: "Accept", value: "application/json")
        for (name, value) in headers { request.headers.add(name: name, value: value) }
        if let body {
            request.headers.add(name: "Content-Type", value: "application/json")
            request.body = .bytes(ByteBuffer(string: body))
        }
        let response = try await http.execute(request, timeout: .seconds(10))
        let bytes = Array(try await response.body.collect(upTo: 10 * 1024 * 1024).readableBytesView)
        let setCookie = response.headers["Set-Cookie"].first
        if let setCookie, let pair = setCookie.split(separator: ";").first {
            let parts = pair.split(separator: "=", maxSplits: 1)
            if parts.count == 2 { cookies[String(parts[0])] = String(parts[1]) }
        }
        transcript.record(
            method: method.rawValue, path: path, requestBody: body, status: Int(response.status.code),
            contentType: response.headers["Content-Type"].first, setCookie: setCookie,
            body: String(decoding: bytes, as: UTF8.self))
        let jsonBytes = Array(XSSIPrefix.strip(bytes))
        let json = (try? JSONSerialization.jsonObject(with: Data(jsonBytes))) as? [String: Any] ?? [:]
        return Reply(status: Int(response.status.code), bytes: bytes, json: json)
    }
}

@Suite("A stock client's sequence, byte for byte", .ownThreads)
struct StockClientSequenceTests {
    @Test func stockSequenceAgainstOpenWrites() async throws {
        let directory = try TemporaryDirectory(prefix: "onthemap-stock")
        defer { directory.remove() }
        let database = try TestDatabase.fresh(in: directory)
        let seed = try runCommand(
            BuiltProducts.path("onthemap-server"), ["seed", "--database", database, "--demo", "--count", "120", "--bcrypt-cost", "4"])
        try #require(seed.status == 0, "\(seed.stderr)")
        let server = try ServerProcess.start(databasePath: database, arguments: ["--open-writes"])
        defer { server.stop() }

        var client = StockClient(baseURL: server.baseURL)
        let login = #"{"udacity":{"username":"demo@onthemap.example","password":"onthemap-demo"}}"#

        let wrong = try await client.send(.POST, "/session", body: #"{"udacity":{"username":"demo@onthemap.example","password":"nope"}}"#)
        #expect(wrong.status == 403)
        let missing = try await client.send(.POST, "/session", body: #"{"udacity":{"username":"demo@onthemap.example"}}"#)
        #expect(missing.status == 400)

        let session = try await client.send(.POST, "/session", body: login)
        #expect(session.status == 200)
        #expect(Array(session.bytes.prefix(5)) == Array(")]}'\n".utf8))
        let account = try #require(session.json["account"] as? [String: Any])
        let key = try #require(account["key"] as? String)
        client.transcript.mask(key, as: "<account-key>")

        let user = try await client.send(.GET, "/users/\(key)")
        #expect(user.json["first_name"] as? String == DemoSeed.firstName)
        #expect(Array(user.bytes.prefix(5)) == Array(")]}'\n".utf8))

        let recent = try await client.send(.GET, "/StudentLocation?limit=100&order=-updatedAt")
        let results = try #require(recent.json["results"] as? [[String: Any]])
        #expect(results.count == 100)
        #expect(recent.bytes.first == UInt8(ascii: "{"))  // no XSSI prefix on StudentLocation
        let updated = results.compactMap { $0["updatedAt"] as? String }
        #expect(updated == updated.sorted(by: >))

        let page = try await client.send(.GET, "/StudentLocation?limit=3&skip=2&order=-updatedAt")
        let pageIDs = try #require(page.json["results"] as? [[String: Any]]).compactMap { $0["objectId"] as? String }
        #expect(pageIDs == results[2..<5].compactMap { $0["objectId"] as? String })

        let pin = #"{"uniqueKey":"\#(key)","firstName":"Ada","lastName":"Lovelace","mapString":"Mountain View, CA","mediaURL":"https://udacity.com","latitude":37.386052,"longitude":-122.083851}"#
        let posted = try await client.send(.POST, "/StudentLocation", body: pin)
        #expect(posted.status == 201)
        let objectId = try #require(posted.json["objectId"] as? String)
        client.transcript.mask(objectId, as: "<my-objectId>")

        let mine = try await client.send(.GET, "/StudentLocation?uniqueKey=\(key)")
        #expect((mine.json["results"] as? [Any])?.count == 1)

        let moved = pin.replacingOccurrences(of: "Mountain View, CA", with: "Arlington, VA")
        let put = try await client.send(.PUT, "/StudentLocation/\(objectId)", body: moved)
        #expect(put.status == 200)

        let xsrf = try #require(client.cookies["XSRF-TOKEN"])
        let logout = try await client.send(
            .DELETE, "/session", headers: [("X-XSRF-TOKEN", xsrf), ("Cookie", "XSRF-TOKEN=\(xsrf)")])
        #expect(logout.status == 200)

        client.transcript.verify(against: "stock-client-sequence.txt")
    }

    @Test func errorBodiesOfAProtectedServer() async throws {
        let fixture = try ServerFixture()
        defer { fixture.tearDown() }
        var client = StockClient(baseURL: fixture.baseURL)
        let pin = #"{"uniqueKey":"1","firstName":"Ada","lastName":"Lovelace","mapString":"Paris","mediaURL":"https://udacity.com","latitude":48.85,"longitude":2.35}"#
        _ = try await client.send(.POST, "/StudentLocation", body: pin)
        _ = try await client.send(.POST, "/StudentLocation", body: pin, headers: [("X-OnTheMap-Session", "1700000000S00")])
        _ = try await client.send(.PUT, "/StudentLocation/NoSuchPin0", body: pin)
        _ = try await client.send(.GET, "/users/0000000000")
        _ = try await client.send(.GET, "/StudentLocation?limit=-1")
        _ = try await client.send(.GET, "/StudentLocation?order=updatedAt;DROP%20TABLE%20account")
        _ = try await client.send(.DELETE, "/session")
        _ = try await client.send(.POST, "/session", body: #"{"facebook_mobile":{"access_token":"EAAB"}}"#)
        _ = try await client.send(.GET, "/nowhere")
        client.transcript.verify(against: "protected-server-errors.txt")
    }
}
