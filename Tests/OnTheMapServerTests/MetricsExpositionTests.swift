import Foundation
import NIOHTTP1
import OnTheMapModels
import OnTheMapTestSupport
import Testing

/// `/metrics` as an operator uses it: help and type for every family, the process series and build
/// info, the database's state, names that match docs/OPERATIONS.md, and an optional bearer token.
@Suite("Metrics operators can use", .ownThreads)
struct MetricsExpositionTests {
    @Test func everyFamilyHasHelpAndTypeAndTheProcessSeriesAreThere() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let server = try ServerProcess.start(
            databasePath: try seededDatabase(in: directory, count: 3, onSuiteBackend: true), arguments: ["--open-writes"])
        defer { server.stop() }
        let root = "http://127.0.0.1:\(server.port)"
        // A request of each kind the families count: routed, cached, not found, a Parse one, a login.
        _ = try await ServerHTTP.send(.GET, server.baseURL + "/StudentLocation")
        _ = try await ServerHTTP.send(.GET, server.baseURL + "/StudentLocation")
        _ = try await ServerHTTP.send(.GET, root + "/nowhere")
        _ = try await ServerHTTP.send(.GET, root + "/parse/classes/StudentLocation/nosuch", headers: ServerHTTP.parseHeaders())
        _ = try await ServerHTTP.send(.POST, server.baseURL + "/session", body: loginBody())
        let text = try await ServerHTTP.send(.GET, root + "/metrics").body

        let families = Self.families(text)
        #expect(families.count >= 15, "\(families)")
        for family in families {
            #expect(text.contains("# HELP \(family) "), "no HELP for \(family)")
            #expect(text.contains("# TYPE \(family) "), "no TYPE for \(family)")
        }
        #expect(text.contains("# TYPE process_cpu_seconds_total counter"))
        #expect((sample(text, "process_resident_memory_bytes") ?? 0) > 1_000_000)
        #expect((sample(text, "process_virtual_memory_bytes") ?? 0) > 1_000_000)
        #expect((sample(text, "process_open_fds") ?? 0) > 3)
        #expect((sample(text, "process_max_fds") ?? 0) >= (sample(text, "process_open_fds") ?? 0))
        #expect((sample(text, "process_cpu_seconds_total") ?? -1) >= 0)
        let started = sample(text, "process_start_time_seconds") ?? 0
        #expect(abs(started - Date().timeIntervalSince1970) < 300, "started at \(started)")
        #expect(sample(text, "onthemap_build_info", ["version": OnTheMapVersion.string]) == 1)
        #expect(sample(text, "onthemap_database_up") == 1)
        #expect(sample(text, "onthemap_http_requests_total", ["route": "/parse/classes/StudentLocation/{objectId}", "status": "404"]) == 1)
        #expect(sample(text, "onthemap_logins_total", ["result": "ok"]) == 1)

        // Every family the server exports is in the table of docs/OPERATIONS.md, and the table names
        // no other (the request-error family appears with the first error; the outage test sees it).
        let documented = Self.documentedFamilies()
        for family in families {
            #expect(documented.contains(family), "\(family) is not in docs/OPERATIONS.md")
        }
        for family in documented where !families.contains(family) {
            #expect(family == "onthemap_http_request_errors_total", "docs/OPERATIONS.md names \(family), which is not exported")
        }
        let operations = try String(contentsOfFile: DeployConfigTests.repositoryFile("docs/OPERATIONS.md"), encoding: .utf8)
        #expect(operations.contains("/v1/StudentLocation/{objectId}") && !operations.contains(":objectId"))
    }

    @Test func aBearerTokenKeepsMetricsPrivate() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let secret = "metrics-\(UUID().uuidString)"
        let tokenFile = directory.file("metrics.token")
        #expect(FileManager.default.createFile(atPath: tokenFile, contents: Data("\(secret)\n".utf8), attributes: [.posixPermissions: 0o600]))
        // Given through the settings file, as the docs show; logged at the most verbose level.
        let settings = directory.file("server.conf")
        try "metrics-token-file = \(tokenFile)\n".write(toFile: settings, atomically: true, encoding: .utf8)
        let server = try ServerProcess.start(
            databasePath: try seededDatabase(in: directory), arguments: ["--config", settings, "--log-level", "trace"])
        defer { server.stop() }
        let metrics = "http://127.0.0.1:\(server.port)/metrics"

        let none = try await ServerHTTP.send(.GET, metrics)
        #expect(none.status == 401)
        #expect(none.headers["WWW-Authenticate"].first?.hasPrefix("Bearer") == true)
        #expect(none.headers["Cache-Control"].first == "no-store", "a refusal is not cached either")
        #expect(!none.body.contains("onthemap_"))
        for wrong in ["Bearer wrong", "Bearer \(secret)x", "Bearer \(secret.dropLast())", "Basic \(secret)", secret] {
            #expect(try await ServerHTTP.send(.GET, metrics, headers: [("Authorization", wrong)]).status == 401, "\(wrong)")
        }
        let right = try await ServerHTTP.send(.GET, metrics, headers: [("Authorization", "Bearer \(secret)")])
        #expect(right.status == 200 && right.body.contains("onthemap_build_info"))
        // /healthz stays open for load balancers.
        #expect(try await ServerHTTP.send(.GET, "http://127.0.0.1:\(server.port)/healthz").status == 200)
        let commandLine = (try? String(contentsOfFile: "/proc/\(server.pid)/cmdline", encoding: .utf8)) ?? ""
        #expect(!commandLine.contains(secret))
        server.stop()
        #expect(!server.log.contains(secret), "the token is in the log")
    }

    @Test func aTokenFileOthersCanReadOrAnEmptyOneIsRefused() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let database = try seededDatabase(in: directory)
        let open = directory.file("open.token")
        #expect(FileManager.default.createFile(atPath: open, contents: Data("secret\n".utf8), attributes: [.posixPermissions: 0o644]))
        let empty = directory.file("empty.token")
        #expect(FileManager.default.createFile(atPath: empty, contents: Data("\n".utf8), attributes: [.posixPermissions: 0o600]))
        for (file, words) in [(open, "readable by every user"), (empty, "is empty"), (directory.file("none"), "Cannot read")] {
            let result = try runCommand(
                BuiltProducts.path("onthemap-server"), ["serve", "--db", database, "--port", "0", "--metrics-token-file", file])
            #expect(result.status == 1, "\(file): \(result.stderr)")
            #expect(result.stderr.contains(words) && result.stderr.contains(file), "\(result.stderr)")
            #expect(!result.stderr.contains("Usage:"))
        }
    }

    /// The metric family names of an exposition (a histogram's `_bucket`, `_sum` and `_count` as one).
    static func families(_ exposition: String) -> Set<String> {
        var names = Set<String>()
        for line in exposition.split(separator: "\n") where line.hasPrefix("# TYPE ") {
            names.insert(String(line.split(separator: " ")[2]))
        }
        for line in exposition.split(separator: "\n") where !line.hasPrefix("#") {
            var name = String(line.prefix { $0 != "{" && $0 != " " })
            for suffix in ["_bucket", "_sum", "_count"] where name.hasSuffix(suffix) && names.contains(String(name.dropLast(suffix.count))) {
                name = String(name.dropLast(suffix.count))
            }
            names.insert(name)
        }
        return names
    }

    /// The metric names in the table of docs/OPERATIONS.md (`| \`name\` | type | …`).
    static func documentedFamilies() -> Set<String> {
        let text = (try? String(contentsOfFile: DeployConfigTests.repositoryFile("docs/OPERATIONS.md"), encoding: .utf8)) ?? ""
        return Set(text.split(separator: "\n").compactMap { $0.firstMatch(of: /^\| `([a-z_]+)` \| (counter|gauge|histogram)/).map { String($0.1) } })
    }
}
