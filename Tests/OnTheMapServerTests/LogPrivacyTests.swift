import Foundation
import NIOHTTP1
import OnTheMapServer
import OnTheMapTestSupport
import Testing

/// No query string reaches the server's log at its default level: a query can carry a secret
/// (`?access_token=…`, the password of Parse's `GET /login`), and the request log wrote each
/// request's target whole.
@Suite("No query string in the server's log", .ownThreads)
struct LogPrivacyTests {
    @Test func queryStringsStayOutOfEveryLogLine() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let server = try ServerProcess.start(
            databasePath: try seededDatabase(in: directory, count: 3), arguments: ["--log-level", "info"])
        defer { server.stop() }
        let root = "http://127.0.0.1:\(server.port)"
        let parse = ServerHTTP.parseHeaders()
        let requests: [(String, String, String?, [(String, String)])] = [
            ("GET", "/v1/StudentLocation?access_token=SECRET-1", nil, []),  // the router
            ("GET", "/v1/StudentLocation?access_token=SECRET-1", nil, []),  // the connection's cache
            ("GET", "/v1/StudentLocation?limit=SECRET-2", nil, []),  // refused: 400
            ("GET", "/nowhere?access_token=SECRET-3", nil, []),  // 404
            ("POST", "/v1/session?access_token=SECRET-4", #"{"udacity":{"username":"a@b.c","password":"p"}}"#, []),
            ("GET", "/parse/login?username=\(DemoSeed.email)&password=SECRET-5", nil, parse),
            ("GET", "/parse/login?username=\(DemoSeed.email)&password=\(DemoSeed.password)", nil, parse),
            ("GET", "/1/classes/StudentLocation?where=SECRET-6", nil, parse),  // 400, code 107
            ("GET", "/parse/nowhere?token=SECRET-7", nil, parse),
            ("GET", "/healthz?token=SECRET-8", nil, []),
            ("GET", "/metrics?token=SECRET-9", nil, []),
            ("HEAD", "/v1/StudentLocation?token=SECRET-10", nil, []),
        ]
        for (method, target, body, headers) in requests {
            _ = try await ServerHTTP.send(.init(rawValue: method), root + target, body: body, headers: headers)
        }
        server.stop()
        let log = server.log
        #expect(!log.contains("SECRET"), "\(log)")
        #expect(!log.contains(DemoSeed.password), "\(log)")
        // Something was logged: the refused login, and the Parse login that worked.
        #expect(log.contains("login refused") && log.contains("login"), "\(log)")
    }
}
