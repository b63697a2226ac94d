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
        let url = try await PostgresTestServer.newDatabase()
        let added = try runCommand(
            BuiltProducts.path("onthemap-server"),
            ["user", "add", "--database", url, "--email", "ada@example.com", "--first", "Ada", "--last", "Lovelace",
             "--password-stdin", "--bcrypt-cost", "4"], stdin: "analytical\n")
        try #require(added.status == 0, "\(added.stderr)")
        let a = try ServerProcess.start(databasePath: url, arguments: ["--trusted-proxy", "127.0.0.1"])
        let b = try ServerProcess.start(databasePath: url, arguments: ["--trusted-proxy", "127.0.0.1"])
        defer { a.stop(); b.stop() }

        // The example as shipped, with the test's ports in place of 8081, 8082 and 80.
        let example = try String(contentsOfFile: Self.repositoryFile("docs/deploy/nginx-onthemap.conf"), encoding: .utf8)
        var port = 0
        var nginx: RunningProcess?
        for _ in 0..<5 where nginx == nil {
            port = try FreePort.pick()
            let site = example.replacingOccurrences(of: "127.0.0.1:8081", with: "127.0.0.1:\(a.port)")
                .replacingOccurrences(of: "127.0.0.1:8082", with: "127.0.0.1:\(b.port)")
                .replacingOccurrences(of: "listen 80;", with: "listen 127.0.0.1:\(port);")
            try site.write(toFile: directory.file("site.conf"), atomically: true, encoding: .utf8)
            let main = """
                daemon off;
                master_process off;
                pid \(directory.file("nginx.pid"));
                error_log \(directory.file("error.log")) warn;
                events { worker_connections 256; }
                http {
                    access_log off;
                    client_body_temp_path \(directory.path);
                    proxy_temp_path \(directory.path);
                    include \(directory.file("site.conf"));
                }
                """
            try main.write(toFile: directory.file("nginx.conf"), atomically: true, encoding: .utf8)
            let process = try RunningProcess("/usr/sbin/nginx", ["-c", directory.file("nginx.conf"), "-p", directory.path])
            if try await Self.answers("http://127.0.0.1:\(port)/v1/StudentLocation?limit=1") {
                nginx = process
            } else {
                process.stop()
            }
        }
        let proxy = try #require(nginx, "nginx did not start: \((try? String(contentsOfFile: directory.file("error.log"), encoding: .utf8)) ?? "")")
        defer { proxy.stop() }
        let base = "http://127.0.0.1:\(port)/v1"

        let (key, session) = try await ServerHTTP.login(base, email: "ada@example.com", password: "analytical")
        for index in 0..<6 {
            let posted = try await ServerHTTP.send(
                .POST, base + "/StudentLocation", body: ServerHTTP.pin(key, mapString: "Via nginx \(index)"),
                headers: [("X-OnTheMap-Session", session)])
            #expect(posted.status == 201, "\(posted.body)")
        }
        #expect(try await ServerHTTP.pins(base, of: key).count == 1)

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
