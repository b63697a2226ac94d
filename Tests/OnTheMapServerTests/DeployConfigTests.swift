import Foundation
import NIOHTTP1
import OnTheMapTestSupport
import Testing

/// docs/deploy/nginx-onthemap.conf, run by a real nginx in front of two real replicas.
@Suite(
    "The nginx example of docs/DEPLOY.md", .ownThreads,
    .enabled(
        if: PostgresTestServer.isAvailable && FileManager.default.isExecutableFile(atPath: "/usr/sbin/nginx"),
        "needs PostgreSQL 15 and nginx (apt-get install postgresql nginx)"))
struct DeployConfigTests {
    @Test func nginxBalancesOverTwoReplicasAndSurvivesOneGoingDown() async throws {
        let directory = try TemporaryDirectory(prefix: "onthemap-nginx")
        defer { directory.remove() }
        let url = try await Self.databaseWithAda()
        let (logA, logB) = (directory.file("a.log"), directory.file("b.log"))
        let a = try ServerProcess.start(databasePath: url, arguments: ["--trusted-proxy", "127.0.0.1", "--access-log", logA])
        let b = try ServerProcess.start(databasePath: url, arguments: ["--trusted-proxy", "127.0.0.1", "--access-log", logB])
        defer { a.stop(); b.stop() }
        let proxy = try await NginxExample.start(in: directory, replicas: [a.port, b.port])
        defer { proxy.stop() }
        let base = proxy.baseURL

        let (key, session) = try await ServerHTTP.login(base, email: "ada@example.com", password: "analytical")
        for index in 0..<6 {
            let posted = try await ServerHTTP.send(
                .POST, base + "/StudentLocation", body: ServerHTTP.pin(key, mapString: "Via nginx \(index)"),
                headers: [("X-OnTheMap-Session", session)])
            #expect(posted.status == 201, "\(posted.body)")
        }
        #expect(try await ServerHTTP.pins(base, of: key).count == 1)
        // Both replicas served some of the writes.
        let writes = { [logA, logB].map { Self.requests(in: $0, "POST", "/v1/StudentLocation").count } }
        #expect(eventually { writes().reduce(0, +) == 6 }, "POSTs seen by A and B: \(writes())")
        #expect(writes().allSatisfy { $0 > 0 }, "POSTs seen by A and B: \(writes())")

        // One replica goes down: nginx sends everything to the other.
        a.stop()
        for index in 0..<6 {
            let reply = try await ServerHTTP.send(
                .POST, base + "/StudentLocation", body: ServerHTTP.pin(key, mapString: "After \(index)"),
                headers: [("X-OnTheMap-Session", session)])
            #expect(reply.status == 201, "\(reply.body)")
        }
        let pins = try await ServerHTTP.pins(base, of: key)
        #expect(pins.first?["mapString"] as? String == "After 5")
    }

    /// Behind the example, the per-address login limit counts the address nginx saw, across both
    /// replicas: an `X-Forwarded-For` the client made up does not make it a new address each time.
    @Test func theLoginLimitCountsTheAddressNginxSawOnBothReplicas() async throws {
        let directory = try TemporaryDirectory(prefix: "onthemap-nginx")
        defer { directory.remove() }
        let url = try await Self.databaseWithAda()
        let limit = ["--trusted-proxy", "127.0.0.1", "--max-login-attempts-per-address", "4", "--max-login-failures", "100"]
        let (logA, logB) = (directory.file("a.log"), directory.file("b.log"))
        let a = try ServerProcess.start(databasePath: url, arguments: limit + ["--access-log", logA])
        let b = try ServerProcess.start(databasePath: url, arguments: limit + ["--access-log", logB])
        defer { a.stop(); b.stop() }
        let proxy = try await NginxExample.start(in: directory, replicas: [a.port, b.port])
        defer { proxy.stop() }

        var statuses: [Int] = []
        for index in 0..<8 {
            let reply = try await ServerHTTP.send(
                .POST, proxy.baseURL + "/session",
                body: #"{"udacity":{"username":"ada@example.com","password":"wrong"}}"#,
                headers: [("X-Forwarded-For", "198.51.100.\(index + 1)")])
            statuses.append(reply.status)
        }
        #expect(statuses == [403, 403, 403, 403, 429, 429, 429, 429], "\(statuses)")
        let logins = { [logA, logB].map { Self.requests(in: $0, "POST", "/v1/session").count } }
        #expect(eventually { logins().reduce(0, +) == 8 }, "logins seen by A and B: \(logins())")
        #expect(logins().allSatisfy { $0 > 0 }, "logins seen by A and B: \(logins())")
    }

    /// Every path the server serves works through the example as shipped: the Udacity API, both
    /// Parse roots (a Parse login included), `/healthz`, `/` (the web app's), and `/metrics` from this
    /// machine only.
    @Test func theShippedSiteProxiesEveryPathTheServerServes() async throws {
        let directory = try TemporaryDirectory(prefix: "onthemap-nginx")
        defer { directory.remove() }
        let url = try await Self.databaseWithAda()
        let a = try ServerProcess.start(databasePath: url, arguments: ["--trusted-proxy", "127.0.0.1"])
        let b = try ServerProcess.start(databasePath: url, arguments: ["--trusted-proxy", "127.0.0.1"])
        defer { a.stop(); b.stop() }
        let proxy = try await NginxExample.start(in: directory, replicas: [a.port, b.port])
        defer { proxy.stop() }
        let root = "http://127.0.0.1:\(proxy.port)"

        let health = try await ServerHTTP.send(.GET, root + "/healthz")
        #expect(health.status == 200 && health.json["status"] as? String == "ok", "\(health.status) \(health.body)")
        let (key, session) = try await ServerHTTP.login(proxy.baseURL, email: "ada@example.com", password: "analytical")
        let posted = try await ServerHTTP.send(
            .POST, proxy.baseURL + "/StudentLocation", body: ServerHTTP.pin(key), headers: [("X-OnTheMap-Session", session)])
        #expect(posted.status == 201, "\(posted.body)")
        #expect(try await ServerHTTP.pins(proxy.baseURL, of: key).count == 1)

        let parse = ServerHTTP.parseHeaders()
        let login = try await ServerHTTP.send(
            .POST, root + "/parse/login", body: #"{"username":"ada@example.com","password":"analytical"}"#, headers: parse)
        #expect(login.status == 200, "\(login.status) \(login.body)")
        let token = try #require(login.json["sessionToken"] as? String)
        let me = try await ServerHTTP.send(.GET, root + "/1/users/me", headers: ServerHTTP.parseHeaders(session: token))
        #expect(me.status == 200 && me.json["objectId"] as? String == key, "\(me.body)")
        for prefix in ["/parse", "/1"] {
            let list = try await ServerHTTP.send(.GET, root + prefix + "/classes/StudentLocation?limit=5", headers: parse)
            #expect(list.status == 200 && (list.json["results"] as? [Any])?.count == 1, "\(prefix): \(list.status) \(list.body)")
        }
        let unknownParse = try await ServerHTTP.send(.GET, root + "/parse/nowhere", headers: parse)
        #expect(unknownParse.status == 404 && unknownParse.json["code"] as? Int == 101, "\(unknownParse.body)")

        // `/` and anything else reach a replica (the web app's paths), not nginx's own 404 page.
        for path in ["/", "/app.js", "/elsewhere"] {
            let reply = try await ServerHTTP.send(.GET, root + path)
            #expect(!reply.body.contains("<center>nginx"), "\(path) answered by nginx itself: \(reply.status)")
        }

        // /metrics: from this machine, yes; from another address (127.0.0.2 stands in), nginx refuses.
        let metrics = try await ServerHTTP.send(.GET, root + "/metrics")
        #expect(metrics.status == 200 && metrics.body.contains("onthemap_http_requests_total"))
        #expect(try Self.status(of: "/metrics", port: proxy.port, from: "127.0.0.2") == 403)
        #expect(try Self.status(of: "/healthz", port: proxy.port, from: "127.0.0.2") == 200)
    }

    /// The status of a GET to 127.0.0.1:`port` sent from the loopback address `source`.
    static func status(of path: String, port: Int, from source: String) throws -> Int? {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(descriptor) }
        func address(_ ip: String, _ port: Int) -> sockaddr_in {
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_addr.s_addr = inet_addr(ip)
            address.sin_port = UInt16(port).bigEndian
            return address
        }
        var local = address(source, 0)
        var remote = address("127.0.0.1", port)
        let size = socklen_t(MemoryLayout<sockaddr_in>.size)
        guard withUnsafePointer(to: &local, { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, size) } }) == 0,
            withUnsafePointer(to: &remote, { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(descriptor, $0, size) } }) == 0
        else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .ECONNREFUSED) }
        var timeout = timeval(tv_sec: 10, tv_usec: 0)
        setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        let request = Array("GET \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n".utf8)
        _ = request.withUnsafeBytes { send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
        var buffer = [UInt8](repeating: 0, count: 512)
        let count = buffer.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
        guard count > 0 else { return nil }
        return Int(String(decoding: buffer[..<count], as: UTF8.self).split(separator: " ").dropFirst().first ?? "")
    }

    /// A new database with the account ada@example.com (password "analytical").
    static func databaseWithAda() async throws -> String {
        let url = try await PostgresTestServer.newDatabase()
        let created = try runCommand(BuiltProducts.path("onthemap-server"), ["migrate", "--create", "--database", url])
        try #require(created.status == 0, "\(created.stderr)")
        let added = try runCommand(
            BuiltProducts.path("onthemap-server"),
            ["user", "add", "--database", url, "--email", "ada@example.com", "--first", "Ada", "--last", "Lovelace",
             "--password-stdin", "--bcrypt-cost", "4"], stdin: "analytical\n")
        try #require(added.status == 0, "\(added.stderr)")
        return url
    }

    /// The requests an access log holds with a method and path (none if the log is not there yet).
    static func requests(in log: String, _ method: String, _ path: String) -> [[String: Any]] {
        let lines = ((try? String(contentsOfFile: log, encoding: .utf8)) ?? "").split(separator: "\n")
        return lines.compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
            .filter { $0["method"] as? String == method && $0["path"] as? String == path }
    }

    /// Whether a GET answers 200 within a few seconds.
    static func answers(_ url: String) async throws -> Bool {
        for _ in 0..<50 {
            if let reply = try? await ServerHTTP.send(.GET, url), reply.status == 200 { return true }
            try await Task.sleep(for: .milliseconds(100))
        }
        return false
    }

    /// A file of this repository, found from this source file's path.
    static func repositoryFile(_ relative: String, filePath: String = #filePath) -> String {
        URL(fileURLWithPath: filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent(relative).path
    }
}
