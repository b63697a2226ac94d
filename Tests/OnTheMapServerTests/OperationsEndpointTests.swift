import Foundation
import NIOHTTP1
import Hummingbird
import HummingbirdTesting
import OnTheMapModels
import OnTheMapServer
import OnTheMapTestSupport
import Testing

/// `/healthz`, `/metrics` and the access log, on a real server process (on the suite's backend).
@Suite("Operations: health, metrics, access log", .ownThreads)
struct OperationsEndpointTests {
    @Test func healthMetricsAndAccessLogOnARealServer() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let accessLog = directory.file("access.log")
        let server = try ServerProcess.start(
            databasePath: try seededDatabase(in: directory, count: 7, onSuiteBackend: true),
            arguments: ["--access-log", accessLog, "--max-login-failures", "1"])
        defer { server.stop() }
        let root = "http://127.0.0.1:\(server.port)"

        let health = try await ServerHTTP.send(.GET, root + "/healthz")
        #expect(health.status == 200)
        #expect(health.body.contains(#""status":"ok""#))

        // One login that works, one refused, one refused by the rate limit (1 failure per account).
        let login = try await ServerHTTP.send(.POST, server.baseURL + "/session", body: loginBody())
        #expect(login.status == 200)
        let sessionID = try #require(login.body.firstMatch(of: /"id":"([^"]+)"/)?.1)
        let xsrf = try #require(login.headers["Set-Cookie"].first?.firstMatch(of: /XSRF-TOKEN=([^;]+)/)?.1)
        #expect(try await ServerHTTP.send(.POST, server.baseURL + "/session", body: loginBody(password: "wrong-horse-1")).status == 403)
        #expect(try await ServerHTTP.send(.POST, server.baseURL + "/session", body: loginBody(password: "wrong-horse-2")).status == 429)
        // Secrets in headers: the session and the XSRF cookie and token.
        let list = try await ServerHTTP.send(
            .GET, server.baseURL + "/StudentLocation?limit=3",
            headers: [("X-OnTheMap-Session", String(sessionID)), ("Cookie", "XSRF-TOKEN=\(xsrf)"), ("User-Agent", Self.hostileAgent)])
        #expect(list.status == 200)
        #expect(try await ServerHTTP.send(.GET, server.baseURL + "/nowhere").status == 404)
        // A huge path and user agent: each line of the log stays short.
        let longPath = "/v1/" + String(repeating: "p", count: 10_000)
        #expect(try await ServerHTTP.send(.GET, root + longPath, headers: [("User-Agent", String(repeating: "U", count: 30_000))]).status == 404)

        let metrics = try await ServerHTTP.send(.GET, root + "/metrics")
        #expect(metrics.status == 200)
        #expect(metrics.headers["Content-Type"].first?.hasPrefix("text/plain; version=0.0.4") == true)
        #expect(metrics.headers["Cache-Control"].first == "no-store", "a scrape is not cached")
        let text = metrics.body
        #expect(sample(text, "onthemap_http_requests_total", ["route": "/v1/session", "method": "POST", "status": "200"]) == 1)
        #expect(sample(text, "onthemap_http_requests_total", ["route": "/v1/session", "method": "POST", "status": "403"]) == 1)
        #expect(sample(text, "onthemap_http_requests_total", ["route": "/v1/StudentLocation", "method": "GET", "status": "200"]) == 1)
        #expect(sample(text, "onthemap_http_requests_total", ["route": "/healthz", "status": "200"]) == 1)
        #expect(sample(text, "onthemap_http_request_duration_seconds_count", ["route": "/v1/session", "status": "200"]) == 1)
        #expect(sample(text, "onthemap_http_request_duration_seconds_bucket", ["route": "/v1/session", "status": "200", "le": "+Inf"]) == 1)
        #expect(text.contains("# TYPE onthemap_http_request_duration_seconds histogram"))
        #expect(sample(text, "onthemap_logins_total", ["result": "ok"]) == 1)
        #expect(sample(text, "onthemap_logins_total", ["result": "failed"]) == 1)
        #expect(sample(text, "onthemap_rate_limited_requests_total") == 1)
        #expect(sample(text, "onthemap_pins") == 7)
        #expect(sample(text, "onthemap_sessions") == 1)

        // The access log: one JSON line per request, none of the secrets.
        server.stop()
        let log = try String(contentsOfFile: accessLog, encoding: .utf8)
        let lines = log.split(separator: "\n")
        #expect(lines.count == 8, "\(log.prefix(4096))")
        let entries = try lines.map { try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] ?? [:] }
        #expect(entries.map { $0["status"] as? Int } == [200, 200, 403, 429, 200, 404, 404, 200])
        #expect(lines.allSatisfy { $0.utf8.count <= 2048 }, "\(lines.map(\.utf8.count))")
        #expect((entries[6]["path"] as? String)?.hasPrefix("/v1/ppp") == true && (entries[6]["path"] as? String)?.hasSuffix("…") == true)
        #expect((entries[6]["userAgent"] as? String)?.hasSuffix("…") == true)
        #expect(entries[1]["path"] as? String == "/v1/session" && entries[1]["method"] as? String == "POST")
        #expect(entries[4]["path"] as? String == "/v1/StudentLocation", "the query string stays out")
        #expect(entries[4]["route"] as? String == "/v1/StudentLocation")
        #expect(entries[4]["userAgent"] as? String == Self.hostileAgent, "exact, once parsed")
        // Written escaped where JSON would leave it raw: `tail` of the log on a terminal obeys nothing.
        #expect(!log.unicodeScalars.contains { DisplayText.isControl($0) && $0 != "\n" || DisplayText.isBidiControl($0) || DisplayText.isLineSeparator($0) },
                "\(lines[4])")
        #expect(lines[4].contains(#"ops-test/1\u009b2J\u202egnp.exe\u2028x"#), "\(lines[4])")
        #expect(entries.allSatisfy { $0["remote"] as? String == "127.0.0.1" && $0["durationMs"] is Double && $0["time"] is String })
        for secret in [DemoSeed.password, "wrong-horse-1", "wrong-horse-2", String(sessionID), String(xsrf), "XSRF-TOKEN", "Cookie"] {
            #expect(!log.contains(secret), "the access log holds \(secret)")
        }
        // The keys in one order on every line (sorted), as written, not just as parsed.
        for line in lines {
            let keys = line.matches(of: /"([A-Za-z]+)":/).map { String($0.1) }
            #expect(keys == keys.sorted(), "\(line)")
            #expect(Set(["durationMs", "method", "path", "status", "time"]).isSubset(of: keys), "\(line)")
        }
        #expect(lines[4].hasPrefix(#"{"bytes":"#) && lines[4].contains(#""path":"/v1/StudentLocation","#), "\(lines[4])")
        let attributes = try FileManager.default.attributesOfItem(atPath: accessLog)
        #expect((attributes[.posixPermissions] as? Int ?? 0) & 0o777 == 0o600)
    }

    /// A user agent with a C1 command (CSI), a right-to-left override and a line separator.
    static let hostileAgent = "ops-test/1\u{9B}2J\u{202E}gnp.exe\u{2028}x"

    @Test func healthIs503WhenTheDatabaseIsGone() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let database = try AppDatabase.open(path: directory.file("db.sqlite"))
        let router = buildRouter(configuration: .defaults, storage: try SQLiteStorage(database: database))
        try await Application(router: router).test(.router) { client in
            try await client.execute(uri: "/healthz", method: .get) { response in
                #expect(response.status == .ok)
            }
            // A real database that stopped answering: its connections are closed.
            try database.closeConnections()
            try await client.execute(uri: "/healthz", method: .get) { response in
                #expect(response.status == .serviceUnavailable)
                #expect(String(buffer: response.body) == #"{"status":"unavailable","database":"unreachable"}"# + "\n")
            }
        }
    }

    @Test func anUnopenableAccessLogIsAClearError() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let result = try runCommand(
            BuiltProducts.path("onthemap-server"),
            ["serve", "--create", "--db", directory.file("db.sqlite"), "--port", "0", "--access-log", "/proc/onthemap/access.log"])
        #expect(result.status == 1)
        #expect(result.stderr.contains("Cannot open the access log /proc/onthemap/access.log"))
        #expect(!result.stderr.contains("Usage:"), "a file that cannot be opened is not a usage mistake")
    }
}
