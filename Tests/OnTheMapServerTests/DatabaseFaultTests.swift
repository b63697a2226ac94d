import Foundation
import NIOHTTP1
import OnTheMapTestSupport
import Testing

/// PostgreSQL missing at start or lost while serving: a clear error, a 503, recovery, no hang.
@Suite(
    "PostgreSQL faults", .ownThreads,
    .enabled(if: PostgresTestServer.isAvailable, "PostgreSQL 15 is not installed (no /usr/lib/postgresql/15/bin/initdb)"))
struct DatabaseFaultTests {
    @Test func unreachableAtStartExitsWithAClearError() throws {
        let refusing = try RefusingPort()
        let url = "postgres://onthemap:secret-word@127.0.0.1:\(refusing.port)/map"
        let result = try runCommand(BuiltProducts.path("onthemap-server"), ["serve", "--port", "0", "--database", url])
        #expect(result.status != 0)
        // Refused at once, not after the pool's 10 s of retries. (The process's own time: waiting
        // for a launch slot while another test holds a thousand sockets took 20-30 s in CI.)
        #expect(result.elapsed < .seconds(10), "\(result.elapsed)")
        #expect(result.stderr.contains("Cannot open the database at postgres://onthemap@127.0.0.1:\(refusing.port)/map"), "\(result.stderr)")
        #expect(result.stderr.contains("unavailable"), "\(result.stderr)")
        #expect(!result.stderr.contains("secret-word"))
    }

    @Test func lostWhileServingAnswers503AndRecovers() async throws {
        let cluster = try await onOwnThread { try PostgresTestServer.startPrivate() }
        defer { cluster.stop() }
        let url = try cluster.createDatabase()
        // Down before the server starts: --wait-for-database waits instead of exiting.
        try await onOwnThread { try cluster.pause() }
        async let starting = onOwnThread {
            try ServerProcess.start(databasePath: url, arguments: ["--wait-for-database", "--open-writes"], timeout: 90)
        }
        try await Task.sleep(for: .seconds(2))
        try await onOwnThread { try cluster.resume() }
        let server = try await starting
        defer { server.stop() }
        let list = server.baseURL + "/StudentLocation?limit=100&order=-updatedAt"
        #expect(try await ServerHTTP.send(.GET, list).status == 200)
        #expect(try await ServerHTTP.send(.POST, server.baseURL + "/StudentLocation", body: ServerHTTP.pin("5")).status == 201)

        try await onOwnThread { try cluster.pause() }
        let started = Date()
        let down = try await ServerHTTP.send(.GET, list)
        #expect(down.status == 503, "\(down.body)")
        #expect(down.json["error"] as? String == "The database is unavailable; try again in a few seconds.")
        #expect(down.headers["Retry-After"].first == "5")
        let write = try await ServerHTTP.send(.POST, server.baseURL + "/StudentLocation", body: ServerHTTP.pin("6"))
        #expect(write.status == 503)
        #expect(Date().timeIntervalSince(started) < 30, "answers came within the bounded time")

        try await onOwnThread { try cluster.resume() }
        var recovered = false
        for _ in 0..<60 where !recovered {
            recovered = try await ServerHTTP.send(.GET, list).status == 200
            if !recovered { try await Task.sleep(for: .milliseconds(500)) }
        }
        #expect(recovered, "the server answers again once PostgreSQL is back")
        let pins = try await ServerHTTP.pins(server.baseURL, of: "5")
        #expect(pins.count == 1)
    }
}
