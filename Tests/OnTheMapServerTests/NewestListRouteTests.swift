import Foundation
import NIOHTTP1
import OnTheMapServer
import OnTheMapTestSupport
import Testing

/// The newest pins answered from memory look, count and log exactly like the answer that filled the
/// cache (the router's headers, metrics, access log and log line), keep pipelined answers in order,
/// and honour `Connection: close`; over real sockets to a real server.
@Suite("The cached newest list, answered by its route", .ownThreads)
struct NewestListRouteTests {
    static let newest = "/v1/StudentLocation?limit=100&order=-updatedAt"

    static func get(_ target: String = newest, headers: String = "") -> [UInt8] {
        Array("GET \(target) HTTP/1.1\r\nHost: 127.0.0.1\r\nUser-Agent: newest-test/1\r\n\(headers)\r\n".utf8)
    }

    @Test func theCachedAnswerIsTheRoutersAnswerCountedAndLoggedAlike() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let accessLog = directory.file("access.log")
        let server = try ServerProcess.start(
            databasePath: try seededDatabase(in: directory, count: 7, onSuiteBackend: true),
            arguments: ["--access-log", accessLog, "--log-level", "debug"])
        defer { server.stop() }
        let socket = try RawSocket(loopbackPort: server.port)

        // The first is made from the database (the cache is empty), the next two come from the cache.
        var answers: [RawHTTPResponse] = []
        for _ in 0..<3 { answers += socket.exchange(Self.get()) }
        try #require(answers.count == 3)
        let first = answers[0]
        #expect(first.status == 200)
        #expect(first.headers.map(\.name) == ["Content-Type", "Content-Length", "ETag", "Cache-Control", "Date", "Server"])
        #expect(first.header("Server") == "onthemap-server")
        for answer in answers.dropFirst() {
            #expect(answer.statusLine == first.statusLine)
            #expect(answer.headers.map(\.name) == first.headers.map(\.name))
            #expect(
                answer.headers.filter { $0.name != "Date" }.map(\.value)
                    == first.headers.filter { $0.name != "Date" }.map(\.value))
            #expect(answer.body == first.body)
            #expect(
                answer.header("Date")?.wholeMatch(of: /[A-Z][a-z]{2}, \d\d [A-Z][a-z]{2} \d{4} \d\d:\d\d:\d\d GMT/)
                    != nil)
        }
        let pins = try JSONSerialization.jsonObject(with: Data(first.body)) as? [String: Any]
        #expect((pins?["results"] as? [Any])?.count == 7)

        let metrics = try await ServerHTTP.send(.GET, "http://127.0.0.1:\(server.port)/metrics").body
        let series = ["route": "/v1/StudentLocation", "method": "GET", "status": "200"]
        #expect(sample(metrics, "onthemap_http_requests_total", series) == 3)
        #expect(sample(metrics, "onthemap_http_request_duration_seconds_count", series) == 3)
        // Each started request is finished: the one in progress is this `/metrics` request.
        #expect(sample(metrics, "onthemap_http_active_requests", ["method": "GET"]) == 1)

        server.stop()
        let lines = try String(contentsOfFile: accessLog, encoding: .utf8).split(separator: "\n")
        let entries = try lines.map { try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] ?? [:] }
        let newestEntries = entries.filter { $0["path"] as? String == "/v1/StudentLocation" }
        #expect(newestEntries.count == 3, "\(lines)")
        for entry in newestEntries {
            #expect(entry["route"] as? String == "/v1/StudentLocation")
            #expect(entry["status"] as? Int == 200)
            #expect(entry["bytes"] as? Int == first.body.count)
            #expect(entry["userAgent"] as? String == "newest-test/1")
            #expect(entry["remote"] as? String == "127.0.0.1")
            #expect(entry["durationMs"] is Double && entry["time"] is String)
        }
        // At debug, and without the query string (which may carry a secret).
        let requestLines = server.log.split(separator: "\n").filter {
            // The path only: a query string can hold a secret, and no log line shows one.
            $0.contains("Request") && $0.contains(/hb.request.path=\/v1\/StudentLocation(\s|$)/)
                && $0.contains("hb.request.method=GET") && !$0.contains("order=")
        }
        #expect(requestLines.count == 3, "\(server.log)")
        #expect(Set(requestLines.compactMap { $0.firstMatch(of: /hb.request.id=(\S+)/)?.1 }).count == 3)
    }

    @Test func pipelinedRequestsAreAnsweredInTheOrderTheyCame() async throws {
        let fixture = try ServerFixture(arguments: ["--open-writes"])
        defer { fixture.tearDown() }
        try fixture.seedDemo(count: 5)
        let socket = try RawSocket(loopbackPort: fixture.server.port)
        // The list is in the cache: an answer from it that did not wait its turn would come first.
        #expect(socket.exchange(Self.get()).first?.status == 200)

        let pin = ServerHTTP.pin("pipelined", mapString: "Pipelined")
        let post = Array(
            "POST /v1/StudentLocation HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: \(pin.utf8.count)\r\n\r\n\(pin)"
                .utf8)
        let answers = socket.exchange(post + Self.get() + Self.get(), responses: 3)
        #expect(answers.map(\.status) == [201, 200, 200])
        let objectId = try #require(
            (try? JSONSerialization.jsonObject(with: Data(answers.first?.body ?? [])) as? [String: Any])?["objectId"]
                as? String)
        for answer in answers.dropFirst() {
            #expect(
                String(decoding: answer.body, as: UTF8.self).contains(objectId),
                "the list answered after the POST shows its pin")
        }
    }

    @Test func connectionCloseIsAnsweredThenClosed() async throws {
        let fixture = try ServerFixture()
        defer { fixture.tearDown() }
        try fixture.seedDemo(count: 5)
        let socket = try RawSocket(loopbackPort: fixture.server.port)
        #expect(socket.exchange(Self.get()).first?.status == 200)

        socket.send(Self.get(headers: "Connection: close\r\n"), timeout: .seconds(10))
        // Until the server closes it; the deadline (far below the 30 s idle timeout, which would
        // also close it) only ends a hung test.
        let rest = socket.receiveAll(timeout: .seconds(20))
        #expect(RawHTTPResponse.parseAll(rest).map(\.status) == [200])
        #expect(peerState(socket.fd) == .closed, "the server closed the connection after answering")
    }
}
