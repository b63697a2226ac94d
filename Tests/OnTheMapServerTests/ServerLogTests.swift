import Foundation
import NIOHTTP1
import OnTheMapTestSupport
import Testing

/// What `serve` logs: quiet by default (no line per successful request, never a query string), the
/// database it opened, and JSON lines for collectors with `--log-format json`.
@Suite("The server's log", .ownThreads)
struct ServerLogTests {
    /// Requests of every kind a client makes, one carrying a secret in its query string.
    private func traffic(_ fixture: ServerFixture) async throws {
        let key = try fixture.addUser(email: "grace@example.com", password: "cobol-1959")
        let (_, session) = try await ServerHTTP.login(fixture.baseURL, email: "grace@example.com", password: "cobol-1959")
        for _ in 0..<10 {
            let list = try await ServerHTTP.send(.GET, fixture.baseURL + "/StudentLocation?limit=5&access_token=SECRET-IN-QUERY")
            #expect(list.status == 200)
        }
        let posted = try await ServerHTTP.send(
            .POST, fixture.baseURL + "/StudentLocation", body: ServerHTTP.pin(key), headers: [("X-OnTheMap-Session", session)])
        #expect(posted.status == 201)
    }

    @Test func theDefaultLevelWritesNoLinePerRequest() async throws {
        // The default level is info; the fixture's usual warning would hide what this checks.
        let fixture = try ServerFixture(arguments: ["--log-level", "info"])
        defer { fixture.tearDown() }
        try await traffic(fixture)
        fixture.stopServer()
        let lines = fixture.server.log.split(separator: "\n")
        #expect(!fixture.server.log.contains("SECRET-IN-QUERY"), "\(fixture.server.log)")
        #expect(!fixture.server.log.contains("/v1/StudentLocation"), "\(fixture.server.log)")
        #expect(!lines.contains { $0.contains("Request") || $0.contains("login") || $0.contains("location created") },
                "\(fixture.server.log)")
        // What it does say: the database, and that it was new.
        let opened = try #require(lines.first { $0.contains("created a new database") }, "\(fixture.server.log)")
        #expect(opened.contains(TestDatabase.usesPostgres ? "postgres://" : fixture.databasePath), "\(opened)")
        #expect(!opened.contains("password") && !opened.contains(":secret"), "\(opened)")

        // Once the file exists, the next start says it opened it.
        try fixture.restartServer()
        #expect(eventually(timeout: .seconds(5)) { fixture.server.log.contains("opened the database") }, "\(fixture.server.log)")
    }

    @Test func debugHasTheRequestLinesWithoutQueryStrings() async throws {
        let fixture = try ServerFixture(arguments: ["--log-level", "debug"])
        defer { fixture.tearDown() }
        try await traffic(fixture)
        fixture.stopServer()
        let requestLines = fixture.server.log.split(separator: "\n").filter { $0.contains("Request") }
        #expect(requestLines.count >= 12, "\(fixture.server.log)")
        #expect(!fixture.server.log.contains("SECRET-IN-QUERY"))
    }

    @Test func jsonLinesForCollectors() async throws {
        let fixture = try ServerFixture(arguments: ["--log-level", "debug", "--log-format", "json"])
        defer { fixture.tearDown() }
        try await traffic(fixture)
        fixture.stopServer()
        // Standard output has the one "listening on" line scripts wait for; every stderr line is JSON.
        let lines = fixture.server.log.split(separator: "\n").filter { !$0.hasPrefix("onthemap-server listening on") }
        #expect(lines.count >= 12)
        for line in lines {
            let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
            #expect(object?["level"] is String && object?["message"] is String && object?["time"] is String, "\(line)")
        }
        let opened = try #require(
            lines.compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
                .first { ($0["message"] as? String)?.hasPrefix("created a new database") == true })
        #expect(opened["new"] as? String == "true" && opened["level"] as? String == "notice", "\(opened)")
        #expect(!fixture.server.log.contains("SECRET-IN-QUERY"))
    }

    @Test func aCleanStopLeavesTheDatabaseFileAlone() async throws {
        let directory = try TemporaryDirectory(prefix: "onthemap-wal")
        defer { directory.remove() }
        let database = directory.file("db.sqlite")
        let server = try ServerProcess.start(databasePath: database, arguments: ["--open-writes"])
        for index in 0..<5 {
            let posted = try await ServerHTTP.send(.POST, server.baseURL + "/StudentLocation", body: ServerHTTP.pin("\(index)"))
            #expect(posted.status == 201)
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path).contains("db.sqlite-wal"))
        #expect(server.stop() == 0)
        // OPERATIONS.md: the WAL is checkpointed into the file, and -wal and -shm are removed.
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == ["db.sqlite"])
        // So do the admin commands, which open the same way.
        #expect(try runCommand(BuiltProducts.path("onthemap-server"), ["pin", "list", "--db", database]).status == 0)
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == ["db.sqlite"])
    }
}
