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
