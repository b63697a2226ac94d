import Foundation
import NIOHTTP1
import OnTheMapTestSupport
import Testing

/// `--pool-size N` (and `pool-size` in a settings file) bounds the connections a replica opens to
/// PostgreSQL however many requests wait: N for the pool, and one more for the change watch's
/// `LISTEN`. Counted by PostgreSQL itself (`pg_stat_activity`, by the name each connection gives)
/// while 40 writes at a time are sent.
///
/// The counting psql's own earlier sessions are left out: a backend outlives its psql by a moment, and
/// a count beside a build saw one as an unnamed connection.
///
/// Counted by name because a replica has more connections than those: a probe that only asks
/// whether the database answers (at start; before PostgresClient was used directly, also after an
/// operation timed out, as one can on a machine busy enough). Counted all together, a pool of 2 looked like 4 connections in a fresh clone's run
/// beside a build; that count could not say what the fourth was, this one does.
@Suite(
    "PostgreSQL pool size", .ownThreads,
    .enabled(if: PostgresTestServer.isAvailable, "PostgreSQL 15 is not installed (no /usr/lib/postgresql/15/bin/initdb)"))
struct PoolSizeTests {
    let server = BuiltProducts.path("onthemap-server")

    @Test func theOptionBoundsTheConnections() async throws {
        let url = try await PostgresTestServer.newDatabase()
        let process = try ServerProcess.start(databasePath: url, arguments: ["--pool-size", "2", "--open-writes"])
        defer { process.stop() }
        let most = try await mostConnectionsUnderLoad(process.baseURL, database: url)
        Self.expectBounded(most, poolSize: 2, log: process.log)
    }

    @Test func theSettingsKeyBoundsTheConnections() async throws {
        let directory = try TemporaryDirectory(prefix: "onthemap-pool")
        defer { directory.remove() }
        let url = try await PostgresTestServer.newDatabase()
        let settings = directory.file("server.conf")
        try "database = \(url)\ncreate = true\npool-size = 3\nopen-writes = true\n".write(toFile: settings, atomically: true, encoding: .utf8)
        let process = try RunningProcess(server, ["serve", "--config", settings, "--port", "0"])
        defer { process.stop() }
        #expect(process.waitForLine { $0.contains("listening on") })
        let base = try #require(process.lines.lazy.compactMap { $0.firstMatch(of: /listening on (\S+)/).map { String($0.1) } }.first)
        let most = try await mostConnectionsUnderLoad(base, database: url)
        Self.expectBounded(most, poolSize: 3, log: process.lines.joined(separator: "\n"))
    }

    /// The pool filled up to its size and no further; one change watch (two only while a lost one is
    /// replaced, which the replica logs); nothing else but probes, and every connection named.
    static func expectBounded(_ most: [String: Int], poolSize: Int, log: String) {
        #expect(most["onthemap-server"] == poolSize, "the pool's connections at most: \(most)")
        let watchLost = log.contains("pin change notifications lost")
        #expect((most["onthemap-server change watch"] ?? 0) <= (watchLost ? 2 : 1), "\(most)\n\(log)")
        let others = Set(most.keys).subtracting(["onthemap-server", "onthemap-server change watch", "onthemap-server probe"])
        #expect(others.isEmpty, "connections the server does not name: \(most)")
    }

    /// The most client connections PostgreSQL counted to `database` under each `application_name`
    /// (other than the counting one) while rounds of 40 concurrent POSTs went to the server: the
    /// pool can only have filled up.
    private func mostConnectionsUnderLoad(_ base: String, database: String) async throws -> [String: Int] {
        let cluster = try PostgresTestServer.shared()
        let loading = LoadUnderWay()
        // Counted on a thread of its own: each count waits on a psql process.
        async let most = onOwnThread {
            var most: [String: Int] = [:]
            while loading.isOn {
                let counts = try cluster.psql(
                    database,
                    "SELECT application_name || '|' || count(*) FROM pg_stat_activity WHERE datname = current_database() "
                        + "AND backend_type = 'client backend' AND pid <> pg_backend_pid() AND application_name <> 'psql' "
                        + "GROUP BY application_name")
                for line in counts.stdout.split(separator: "\n") {
                    guard let bar = line.lastIndex(of: "|"), let count = Int(line[line.index(after: bar)...]) else { continue }
                    most[String(line[..<bar]), default: 0] = max(most[String(line[..<bar])] ?? 0, count)
                }
                usleep(20_000)
            }
            return most
        }
        for round in 0..<10 {
            try await withThrowingTaskGroup(of: Int.self) { group in
                for index in 0..<40 {
                    group.addTask {
                        try await ServerHTTP.send(.POST, base + "/StudentLocation", body: ServerHTTP.pin("\(round * 40 + index)"))
                            .status
                    }
                }
                for try await status in group { #expect(status == 201) }
            }
        }
        loading.end()
        return try await most
    }
}

/// Whether the load is still being sent; read by the counting thread.
private final class LoadUnderWay: @unchecked Sendable {
    private let lock = NSLock()
    private var on = true  // guarded by `lock`
    var isOn: Bool { lock.withLock { on } }
    func end() { lock.withLock { on = false } }
}
