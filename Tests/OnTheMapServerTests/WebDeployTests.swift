import Foundation
import OnTheMapTestSupport
import Testing

/// docs/deploy/nginx-onthemap-tls.conf as shipped, run by a real nginx with a certificate of the
/// test's own in front of a real server: the page and the API over HTTPS with the page's headers
/// intact, and plain HTTP redirected.
@Suite(
    "The web page behind nginx with TLS", .ownThreads,
    .enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/sbin/nginx"), "needs nginx (apt-get install nginx)"),
    .enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/openssl"), "needs openssl for a test certificate"),
    .enabled(if: !TestDatabase.usesPostgres, "runs once, on SQLite: nginx does not care which database serves"))
struct WebDeployTests {
    @Test func servesThePageAndTheAPIOverHTTPSAndRedirectsHTTP() throws {
        let fixture = try ServerFixture()
        defer { fixture.tearDown() }
        try fixture.seedDemo(count: 5)
        let directory = try TemporaryDirectory(prefix: "nginx-tls")
        defer { directory.remove() }
        let certificate = try runCommand(
            "/usr/bin/openssl",
            ["req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1", "-subj", "/CN=127.0.0.1",
             "-keyout", directory.file("key.pem"), "-out", directory.file("cert.pem")])
        try #require(certificate.status == 0, "\(certificate.stderr)")

        let (nginx, http, https) = try startNginx(in: directory, serverPort: fixture.server.port)
        defer { nginx.stop() }
        let page = try curl(["-k", "-H", "Accept-Encoding: gzip", "https://127.0.0.1:\(https)/"])
        #expect(page.status == 200, "\(page.head)")
        #expect(page.values("content-security-policy") == ["default-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"], "\(page.head)")
        #expect(page.values("x-content-type-options") == ["nosniff"] && page.values("referrer-policy") == ["no-referrer"])
        #expect(page.values("content-encoding") == ["gzip"], "the server's gzip goes through")
        #expect(page.values("strict-transport-security") == ["max-age=31536000"])
        let etag = try #require(page.values("etag").first)
        let again = try curl(["-k", "-H", "Accept-Encoding: gzip", "-H", "If-None-Match: \(etag)", "https://127.0.0.1:\(https)/"])
        #expect(again.status == 304, "\(again.head)")
        let list = try curl(["-k", "https://127.0.0.1:\(https)/v1/StudentLocation?limit=2"])
        #expect(list.status == 200 && list.body.hasPrefix(#"{"results":[{"#), "\(list.head)\(list.body)")
        let plain = try curl(["http://127.0.0.1:\(http)/index.html"])
        #expect(plain.status == 301 && plain.values("location") == ["https://127.0.0.1/index.html"], "\(plain.head)")
    }

    /// nginx with the example, its ports and certificate swapped for the test's; (process, http, https).
    private func startNginx(in directory: TemporaryDirectory, serverPort: Int) throws -> (RunningProcess, Int, Int) {
        let example = try String(
            contentsOfFile: DeployConfigTests.repositoryFile("docs/deploy/nginx-onthemap-tls.conf"), encoding: .utf8)
        for _ in 0..<5 {
            let (http, https) = (try FreePort.pick(), try FreePort.pick())
            let site = example.split(separator: "\n", omittingEmptySubsequences: false)
                .filter { !$0.contains("listen [::]") }.joined(separator: "\n")
                .replacingOccurrences(of: "listen 80;", with: "listen 127.0.0.1:\(http);")
                .replacingOccurrences(of: "listen 443 ssl http2;", with: "listen 127.0.0.1:\(https) ssl http2;")
                .replacingOccurrences(of: "/etc/letsencrypt/live/map.example.org/fullchain.pem", with: directory.file("cert.pem"))
                .replacingOccurrences(of: "/etc/letsencrypt/live/map.example.org/privkey.pem", with: directory.file("key.pem"))
                .replacingOccurrences(of: "http://127.0.0.1:8080", with: "http://127.0.0.1:\(serverPort)")
            let process = try NginxExample.run(site: site, in: directory, connections: 64)
            let deadline = Date().addingTimeInterval(10)
            while Date() < deadline {
                if let answer = try? curl(["-k", "https://127.0.0.1:\(https)/v1/StudentLocation?limit=1"]), answer.status == 200 {
                    return (process, http, https)
                }
                usleep(100_000)
            }
            process.stop()
        }
        let log = (try? String(contentsOfFile: directory.file("error.log"), encoding: .utf8)) ?? ""
        throw ServerProcessError(message: "nginx did not start: \(log)")
    }

    /// An answer as curl received it: status, header lines, body.
    struct Answer {
        var status: Int
        var head: String
        var body: String

        /// The values of a header (its name in lower case), in order.
        func values(_ name: String) -> [String] {
            head.split(separator: "\r\n").compactMap { line in
                let parts = line.split(separator: ":", maxSplits: 1)
                guard parts.count == 2, parts[0].lowercased() == name else { return nil }
                return parts[1].trimmingCharacters(in: .whitespaces)
            }
        }
    }

    private func curl(_ arguments: [String]) throws -> Answer {
        let directory = try TemporaryDirectory(prefix: "curl")
        defer { directory.remove() }
        let result = try runCommand(
            "/usr/bin/curl", ["-s", "--max-time", "10", "-D", directory.file("head"), "-o", directory.file("body")] + arguments)
        guard result.status == 0 else { throw ServerProcessError(message: "curl \(arguments): \(result.status) \(result.stderr)") }
        let head = try String(contentsOfFile: directory.file("head"), encoding: .utf8)
        let body = (try? String(contentsOfFile: directory.file("body"), encoding: .utf8)) ?? ""
        let status = Int(head.split(separator: " ").dropFirst().first ?? "") ?? 0
        return Answer(status: status, head: head, body: body)
    }
}
