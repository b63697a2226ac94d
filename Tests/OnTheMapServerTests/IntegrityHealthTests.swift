import Foundation
import NIOHTTP1
import OnTheMapTestSupport
import Testing

/// `/healthz` runs no query that a damaged file passes: a SQLite file with 4 pages overwritten is
/// reported corrupt (503, `onthemap_database_up` 0, one log line), where it used to say "ok" while
/// list requests failed: found by the scheduled check, and at once when a request meets the damage.
/// The checks' own debug lines ("integrity check: sound") say when one has run.
@Suite("Health reports a damaged database file", .ownThreads)
struct IntegrityHealthTests {
    @Test func fourDamagedPagesMakeHealthFail() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = try seededDatabase(in: directory, count: 2_000)
        let server = try ServerProcess.start(
            databasePath: path, arguments: ["--log-level", "debug", "--open-writes", "--integrity-check-interval", "1"])
        defer { server.stop() }
        let root = "http://127.0.0.1:\(server.port)"
        // Sound: ok, and the checks (two at least) find nothing.
        #expect(eventually { Self.checks(server.log, "sound") >= 2 }, "\(server.log)")
        #expect(try await ServerHTTP.send(.GET, root + "/healthz").status == 200)
        #expect(sample(try await ServerHTTP.send(.GET, root + "/metrics").body, "onthemap_database_up") == 1)
        #expect(!server.log.contains("failed its integrity check"), "\(server.log)")

        // The disk damages the file under the running server, and nothing is written after: the
        // server's connections still hold the pages they read before, so only a check that reads
        // the file itself finds it (one run's insert hit a damaged page, committed nothing, and the
        // check on a pooled connection said "ok" for ever).
        try Self.damage(pages: 4, of: path)
        #expect(
            try await eventually(timeout: .seconds(20)) {
                try await ServerHTTP.send(.GET, root + "/healthz").status == 503
            })
        let health = try await ServerHTTP.send(.GET, root + "/healthz")
        #expect(health.body == #"{"status":"unavailable","database":"corrupt"}"# + "\n")
        let metrics = try await ServerHTTP.send(.GET, root + "/metrics").body
        #expect(sample(metrics, "onthemap_database_up") == 0)
        // What the damage does to the API (the reason /healthz must not say ok), counted as errors:
        // once the check found it, the pool's connections let go of the pages they held.
        var statuses: [Int] = []
        for skip in stride(from: 0, to: 2_000, by: 250) {
            statuses.append(try await ServerHTTP.send(.GET, server.baseURL + "/StudentLocation?limit=250&skip=\(skip)").status)
        }
        #expect(statuses.contains(500), "list requests over the damaged pages: \(statuses)")
        let errors = sample(try await ServerHTTP.send(.GET, root + "/metrics").body, "onthemap_http_request_errors_total", ["status": "500"])
        #expect((errors ?? 0) >= 1)
        // Said once, however many checks found it.
        #expect(eventually { Self.checks(server.log, "damaged") >= 3 }, "\(server.log)")
        #expect(server.log.components(separatedBy: "failed its integrity check").count - 1 == 1, "\(server.log)")
        #expect(server.log.contains("onthemap-server restore"))
    }

    /// A request that meets a damaged page sets the check off at once: with checks only at start,
    /// `/healthz` says "corrupt" right after the first failed list, not at a next turn that never
    /// comes (it used to say "ok" for up to five minutes).
    @Test func aRequestThatMeetsDamageRunsTheCheckAtOnce() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = try seededDatabase(in: directory, count: 2_000)
        let server = try ServerProcess.start(
            databasePath: path, arguments: ["--log-level", "debug", "--integrity-check-interval", "0"])
        defer { server.stop() }
        let root = "http://127.0.0.1:\(server.port)"
        #expect(eventually { Self.checks(server.log, "sound") == 1 }, "the check at start: \(server.log)")
        #expect(try await ServerHTTP.send(.GET, root + "/healthz").status == 200)

        // Damaged before any request read those pages: the pool holds none of them.
        try Self.damage(pages: 4, of: path)
        var statuses: [Int] = []
        for skip in stride(from: 0, to: 2_000, by: 250) {
            statuses.append(try await ServerHTTP.send(.GET, server.baseURL + "/StudentLocation?limit=250&skip=\(skip)").status)
        }
        #expect(statuses.contains(500), "list requests over the damaged pages: \(statuses)")
        #expect(
            try await eventually { try await ServerHTTP.send(.GET, root + "/healthz").status == 503 },
            "\(server.log)")
        #expect(sample(try await ServerHTTP.send(.GET, root + "/metrics").body, "onthemap_database_up") == 0)
        #expect(server.log.components(separatedBy: "failed its integrity check").count - 1 == 1, "\(server.log)")
    }

    /// How many checks have logged `verdict` ("sound" or "damaged").
    static func checks(_ log: String, _ verdict: String) -> Int {
        log.components(separatedBy: "integrity check: \(verdict)").count - 1
    }

    /// Overwrites `pages` pages spread over the file (not the first: SQLite would not open it) with
    /// bytes that are no b-tree page.
    static func damage(pages: Int, of path: String) throws {
        let handle = try FileHandle(forUpdating: URL(fileURLWithPath: path))
        defer { try? handle.close() }
        let size = try handle.seekToEnd()
        let pageSize: UInt64 = 4096
        let count = size / pageSize
        #expect(count > UInt64(pages) * 4, "a file of \(count) pages")
        for index in 1...UInt64(pages) {
            try handle.seek(toOffset: count * index / UInt64(pages + 1) * pageSize)
            handle.write(Data((0..<Int(pageSize)).map { UInt8(truncatingIfNeeded: $0 &* 37 &+ 11) }))
        }
    }
}
