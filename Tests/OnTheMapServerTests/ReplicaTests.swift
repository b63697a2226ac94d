import Foundation
import NIOHTTP1
import OnTheMapTestSupport
import Testing

/// Two real `onthemap-server` replicas on two ports over one PostgreSQL database behave as one server.
@Suite(
    "Two replicas over one PostgreSQL database", .ownThreads,
    .enabled(if: PostgresTestServer.isAvailable, "PostgreSQL 15 is not installed (no /usr/lib/postgresql/15/bin/initdb)"))
struct ReplicaTests {
    /// A database with one account, and replicas A and B serving it.
    final class Pair: @unchecked Sendable {
        let url: String
        let a: ServerProcess
        let b: ServerProcess

        init(arguments: [String] = []) throws {
            url = try PostgresTestServer.shared().createDatabase()
            // `user add` creates no database: the tables come first, as an operator makes them.
            let created = try runCommand(BuiltProducts.path("onthemap-server"), ["migrate", "--create", "--database", url])
            guard created.status == 0 else { throw ServerProcessError(message: created.stderr) }
            let added = try runCommand(
                BuiltProducts.path("onthemap-server"),
                ["user", "add", "--database", url, "--email", "ada@example.com", "--first", "Ada", "--last", "Lovelace",
                 "--password-stdin", "--bcrypt-cost", "4"],
                stdin: "analytical\n")
            guard added.status == 0 else { throw ServerProcessError(message: added.stderr) }
            a = try ServerProcess.start(databasePath: url, arguments: arguments)
            b = try ServerProcess.start(databasePath: url, arguments: arguments)
        }

        func stop() {
            a.stop()
            b.stop()
        }
    }

    @Test func aSessionMadeOnAWorksOnB() async throws {
        let pair = try await onOwnThread { try Pair() }
        defer { pair.stop() }
        let login = try await ServerHTTP.send(
            .POST, pair.a.baseURL + "/session", body: #"{"udacity":{"username":"ada@example.com","password":"analytical"}}"#)
        #expect(login.status == 200)
        let key = try #require((login.json["account"] as? [String: Any])?["key"] as? String)
        let session = try #require((login.json["session"] as? [String: Any])?["id"] as? String)
        let cookie = try #require(login.headers["Set-Cookie"].first?.split(separator: ";").first)
        let xsrf = String(cookie.split(separator: "=", maxSplits: 1)[1])

        let posted = try await ServerHTTP.send(
            .POST, pair.b.baseURL + "/StudentLocation", body: ServerHTTP.pin(key), headers: [("X-OnTheMap-Session", session)])
        #expect(posted.status == 201, "\(posted.body)")
        // Logging out on B ends the session on A too.
        let logout = try await ServerHTTP.send(.DELETE, pair.b.baseURL + "/session", headers: [("X-XSRF-TOKEN", xsrf)])
        #expect(logout.status == 200, "\(logout.body)")
        let refused = try await ServerHTTP.send(
            .POST, pair.a.baseURL + "/StudentLocation", body: ServerHTTP.pin(key), headers: [("X-OnTheMap-Session", session)])
        #expect(refused.status == 401)
    }

    @Test func concurrentPostsForOneAccountOnAAndBLeaveOnePin() async throws {
        let pair = try await onOwnThread { try Pair() }
        defer { pair.stop() }
        let (key, session) = try await ServerHTTP.login(pair.a.baseURL, email: "ada@example.com", password: "analytical")
        let urls = [pair.a.baseURL, pair.b.baseURL]
        let replies = try await withThrowingTaskGroup(of: ServerHTTP.Reply.self) { group in
            for index in 0..<20 {
                group.addTask {
                    try await ServerHTTP.send(
                        .POST, urls[index % 2] + "/StudentLocation", body: ServerHTTP.pin(key, mapString: "Place \(index)"),
                        headers: [("X-OnTheMap-Session", session)])
                }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(replies.allSatisfy { $0.status == 201 }, "\(replies.map(\.body))")
        #expect(Set(replies.compactMap { $0.json["objectId"] as? String }).count == 1)
        #expect(try await ServerHTTP.pins(pair.a.baseURL, of: key).count == 1)
        #expect(try await ServerHTTP.pins(pair.b.baseURL, of: key).count == 1)
    }

    @Test func theLoginLimitCountsAttemptsOnBoth() async throws {
        let pair = try await onOwnThread { try Pair() }
        defer { pair.stop() }
        let urls = [pair.a.baseURL, pair.b.baseURL]
        let statuses = try await withThrowingTaskGroup(of: Int.self) { group in
            for index in 0..<24 {
                group.addTask {
                    try await ServerHTTP.send(
                        .POST, urls[index % 2] + "/session",
                        body: #"{"udacity":{"username":"ada@example.com","password":"wrong"}}"#
                    ).status
                }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(statuses.filter { $0 == 403 }.count == 5, "\(statuses.sorted())")
        #expect(statuses.filter { $0 == 429 }.count == 19, "\(statuses.sorted())")
    }

    /// Replicas started together on an empty database (a fresh deployment) migrate it once between
    /// them: each waits for the other's migration instead of failing on a half-made schema.
    @Test func replicasStartedTogetherOnAnEmptyDatabaseAllServe() async throws {
        let url = try await PostgresTestServer.newDatabase()
        let replicas = try await withThrowingTaskGroup(of: ServerProcess.self) { group in
            for _ in 0..<4 {
                group.addTask { try await onOwnThread { try ServerProcess.start(databasePath: url, arguments: ["--open-writes"]) } }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        defer { replicas.forEach { $0.stop() } }
        #expect(replicas.count == 4)
        for (index, replica) in replicas.enumerated() {
            let posted = try await ServerHTTP.send(.POST, replica.baseURL + "/StudentLocation", body: ServerHTTP.pin("\(index)"))
            #expect(posted.status == 201, "\(posted.body)")
        }
        let migrated = try runCommand(BuiltProducts.path("onthemap-server"), ["migrate", "--database", url])
        #expect(migrated.stdout.contains("schema up to date, 4 pins"), "\(migrated.stdout)\(migrated.stderr)")
        let once = try PostgresTestServer.shared().psql(
            url, "SELECT count(*) = max(version) AND count(*) = count(DISTINCT version) FROM schemaMigration")
        #expect(once.stdout.hasPrefix("t"), "each migration applied once: \(once.stdout)\(once.stderr)")
    }

    @Test func theNewestPinsOnBShowAWriteOnA() async throws {
        let pair = try await onOwnThread { try Pair(arguments: ["--open-writes"]) }
        defer { pair.stop() }
        for index in 0..<5 {
            // B answers the list (and keeps it); A takes a write; B is told and answers with it.
            _ = try await NewestListCacheTests.newestIDs(pair.b.baseURL)
            let posted = try await ServerHTTP.send(
                .POST, pair.a.baseURL + "/StudentLocation", body: ServerHTTP.pin("key\(index)", mapString: "Write \(index)"))
            let objectId = try #require(posted.json["objectId"] as? String)
            #expect(try await NewestListCacheTests.within(.seconds(5)) {
                try await NewestListCacheTests.newestIDs(pair.b.baseURL).first == objectId
            })
        }
    }

    @Test func replicasThatLoseTheirNotificationConnectionStillShowWritesAndListenAgain() async throws {
        let pair = try await onOwnThread { try Pair(arguments: ["--open-writes"]) }
        defer { pair.stop() }
        let postgres = try PostgresTestServer.shared()
        let watches = """
            SELECT count(*) FROM pg_stat_activity
            WHERE application_name = 'onthemap-server change watch' AND datname = current_database()
            """
        #expect(try await NewestListCacheTests.within(.seconds(10)) { try postgres.psql(pair.url, watches).stdout.hasPrefix("2") })
        _ = try await NewestListCacheTests.newestIDs(pair.b.baseURL)

        // Both replicas' LISTEN connections are cut, as a network fault or a PostgreSQL restart would.
        let cut = try postgres.psql(
            pair.url,
            """
            SELECT pg_terminate_backend(pid) FROM pg_stat_activity
            WHERE application_name = 'onthemap-server change watch' AND datname = current_database()
            """)
        #expect(cut.stdout.split(separator: "\n").count == 2, "\(cut.stdout)\(cut.stderr)")
        let posted = try await ServerHTTP.send(
            .POST, pair.a.baseURL + "/StudentLocation", body: ServerHTTP.pin("cut", mapString: "During the cut"))
        let objectId = try #require(posted.json["objectId"] as? String)
        #expect(try await NewestListCacheTests.within(.seconds(5)) {
            try await NewestListCacheTests.newestIDs(pair.b.baseURL).first == objectId
        })
        // Both listen again by themselves, and B is told of A's next write.
        #expect(try await NewestListCacheTests.within(.seconds(10)) { try postgres.psql(pair.url, watches).stdout.hasPrefix("2") })
        let again = try await ServerHTTP.send(
            .POST, pair.a.baseURL + "/StudentLocation", body: ServerHTTP.pin("after", mapString: "After the cut"))
        let againID = try #require(again.json["objectId"] as? String)
        #expect(try await NewestListCacheTests.within(.seconds(5)) {
            try await NewestListCacheTests.newestIDs(pair.b.baseURL).first == againID
        })
    }
}
