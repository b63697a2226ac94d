import Foundation
import NIOHTTP1
import OnTheMapTestSupport
import Testing

/// `--pool-size N` (and `pool-size` in a settings file) bounds the connections a replica opens to
/// PostgreSQL however many requests wait: N for the pool, and one more for the change watch's
/// `LISTEN`. Counted by PostgreSQL itself (`pg_stat_activity`) while 40 writes at a time are sent.
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
        #expect(most == 2 + 1, "connections at most: \(most)")
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
        #expect(most == 3 + 1, "connections at most: \(most)")
    }

    /// The most client connections PostgreSQL counted to `database` (other than the counting one)
    /// while rounds of 40 concurrent POSTs went to the server: the pool can only have filled up.
    private func mostConnectionsUnderLoad(_ base: String, database: String) async throws -> Int {
        let cluster = try PostgresTestServer.shared()
        let loading = LoadUnderWay()
        // Counted on a thread of its own: each count waits on a psql process.
        async let most = onOwnThread {
            var most = 0
            while loading.isOn {
                let count = try cluster.psql(
                    database,
                    "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() "
                        + "AND backend_type = 'client backend' AND pid <> pg_backend_pid()")
                most = max(most, Int(count.stdout.trimmingCharacters(in: .whitespacesAndNewlines)) ?? 0)
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
