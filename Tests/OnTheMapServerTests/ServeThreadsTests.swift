import Foundation
import OnTheMapServer
import OnTheMapTestSupport
import Testing

/// `serve --threads N` sizes what SwiftNIO starts once per core by default: the event loops that
/// serve connections (and PostgreSQL's) and the pool that runs bcrypt. Replicas that share a machine
/// divide its cores this way instead of each starting a thread per core. Counted as the process's
/// threads, which SwiftNIO names.
@Suite("serve --threads", .ownThreads)
struct ServeThreadsTests {
    let server = BuiltProducts.path("onthemap-server")

    @Test(arguments: [1, 3])
    func startsAsManyThreadsAsAsked(count: Int) async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let db = directory.file("db.sqlite")
        let seeded = try runCommand(server, ["seed", "--db", db, "--demo", "--bcrypt-cost", "4"])
        #expect(seeded.status == 0, "\(seeded.stderr)")
        let process = try ServerProcess.start(databasePath: db, arguments: ["--threads", String(count)])
        defer { process.stop() }
        // A login hashes on the pool, which starts on first use.
        _ = try await ServerHTTP.login(process.baseURL, email: DemoSeed.email, password: DemoSeed.password)

        let names = try threadNames(process.pid)
        #expect(names.filter { $0.hasPrefix("NIO-SGLTN-") }.count == count, "\(names)")
        #expect(names.filter { $0.hasPrefix("SGLTN-TP-") }.count == count, "\(names)")
    }

    @Test(arguments: ["0", "257", "many"])
    func refusesACountOutOfRange(value: String) throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        // Under `timeout`: a count let through would start a server that never exits (124).
        let refused = try runCommand(
            "/usr/bin/timeout", ["20", server, "serve", "--db", directory.file("db.sqlite"), "--port", "0", "--threads", value])
        #expect(refused.status == 64)
        #expect(refused.stderr.contains("--threads"), "\(refused.stderr)")
    }

    private func threadNames(_ pid: Int32) throws -> [String] {
        let tasks = try FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/task")
        return tasks.compactMap { try? String(contentsOfFile: "/proc/\(pid)/task/\($0)/comm", encoding: .utf8) }
            .map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }
    }
}
