import Foundation
import NIOHTTP1
import OnTheMapTestSupport
import Testing

/// The newest pins are answered from memory until a pin changes; every write shows, whoever makes it.
@Suite("The newest-pins cache sees every write", .ownThreads)
struct NewestListCacheTests {
    static let newest = "/StudentLocation?limit=100&order=-updatedAt"

    @Test func aPinRemovedByTheAdminCommandLeavesTheList() async throws {
        let fixture = try ServerFixture(arguments: ["--open-writes"])
        defer { fixture.tearDown() }
        try fixture.seedDemo(count: 20)
        let before = try await Self.newestIDs(fixture.baseURL)
        let removed = try #require(before.first)
        // Asked twice: the second answer comes from memory.
        #expect(try await Self.newestIDs(fixture.baseURL) == before)

        // Another process writes the database while the server serves it.
        let result = try runCommand(
            BuiltProducts.path("onthemap-server"), ["pin", "remove", removed, "--yes", "--database", fixture.databasePath])
        #expect(result.status == 0, "\(result.stderr)")
        if TestDatabase.usesPostgres {
            // Told by NOTIFY, or at the latest by the watch's once-a-second check.
            #expect(try await Self.within(.seconds(5)) { !(try await Self.newestIDs(fixture.baseURL)).contains(removed) })
        } else {
            // SQLite: the very next request sees the commit (the pins' version, read at each request).
            #expect(try await !Self.newestIDs(fixture.baseURL).contains(removed))
        }
    }

    @Test func theServersOwnWriteShowsInItsNextAnswer() async throws {
        let fixture = try ServerFixture(arguments: ["--open-writes"])
        defer { fixture.tearDown() }
        try fixture.seedDemo(count: 20)
        for index in 0..<5 {
            _ = try await Self.newestIDs(fixture.baseURL)
            let posted = try await ServerHTTP.send(
                .POST, fixture.baseURL + "/StudentLocation", body: ServerHTTP.pin("own\(index)", mapString: "Own \(index)"))
            let objectId = try #require(posted.json["objectId"] as? String)
            #expect(try await Self.newestIDs(fixture.baseURL).first == objectId)
        }
    }

    /// The objectIds of the newest 100 pins, newest first.
    static func newestIDs(_ baseURL: String) async throws -> [String] {
        let reply = try await ServerHTTP.send(.GET, baseURL + newest)
        #expect(reply.status == 200)
        return (reply.json["results"] as? [[String: Any]] ?? []).compactMap { $0["objectId"] as? String }
    }

    /// True once `condition` holds, checked every 50 ms; false if it still does not after `timeout`.
    static func within(_ timeout: Duration, _ condition: () async throws -> Bool) async throws -> Bool {
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            if try await condition() { return true }
            try await Task.sleep(for: .milliseconds(50))
        }
        return false
    }
}
