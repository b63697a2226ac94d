import Foundation
import NIOHTTP1
import OnTheMapTestSupport
import Testing

/// PostgreSQL missing at start or lost while serving: a clear error, a 503, recovery, no hang.
///
/// Judged by what happened, not by the clock: a request refused "at once" is one the server refused
/// as a known outage (it logs none of those at its level), not one that waited for the database's
/// deadline (it logs "did not answer within"); recovery is the next write working once the server has
/// logged that the database answers again (a pool left in its back-off would refuse it).
@Suite(
    "PostgreSQL faults", .ownThreads,
    .enabled(if: PostgresTestServer.isAvailable, "PostgreSQL 15 is not installed (no /usr/lib/postgresql/15/bin/initdb)"))
struct DatabaseFaultTests {
    @Test func unreachableAtStartExitsWithAClearError() throws {
        let refusing = try RefusingPort()
        let url = "postgres://onthemap:secret-word@127.0.0.1:\(refusing.port)/map"
        let result = try runCommand(BuiltProducts.path("onthemap-server"), ["serve", "--port", "0", "--database", url])
        #expect(result.status != 0)
        // The refused connection itself, said at once; not the pool's retries until its deadline.
        #expect(result.stderr.contains("Cannot open the database at postgres://onthemap@127.0.0.1:\(refusing.port)/map"), "\(result.stderr)")
        #expect(result.stderr.contains("unavailable") && result.stderr.contains("onnection refused"), "\(result.stderr)")
        #expect(!result.stderr.contains("did not answer within"), "\(result.stderr)")
        #expect(result.stderr.split(separator: "\n").count == 1, "one line: \(result.stderr)")
        #expect(!result.stderr.contains("secret-word"))
    }

    @Test func lostWhileServingAnswers503AndRecovers() async throws {
        let cluster = try await onOwnThread { try PostgresTestServer.startPrivate() }
        defer { cluster.stop() }
        let url = try cluster.createDatabase()
        // Down before the server starts: --wait-for-database waits instead of exiting.
        try await onOwnThread { try cluster.pause() }
        let server = try ServerProcess.spawn(databasePath: url, arguments: ["--wait-for-database", "--open-writes", "--log-level", "notice"])
        defer { server.stop() }
        #expect(eventually { server.log.contains("waiting for PostgreSQL") }, "\(server.log)")
        try await onOwnThread { try cluster.resume() }
        try await onOwnThread { try server.waitUntilListening(timeout: 90) }
        let list = server.baseURL + "/StudentLocation?limit=100&order=-updatedAt"
        #expect(try await ServerHTTP.send(.GET, list).status == 200)
        #expect(try await ServerHTTP.send(.POST, server.baseURL + "/StudentLocation", body: ServerHTTP.pin("5")).status == 201)

        try await onOwnThread { try cluster.pause() }
        // A write sent as the database goes: it may wait on the pool of that moment until after a
        // fresh one has replaced it, and must still get a 503 (or its 201), never a 500.
        async let caught = ServerHTTP.send(.POST, server.baseURL + "/StudentLocation", body: ServerHTTP.pin("5"))
        try await Self.expectRefusedAtOnce(server)

        try await onOwnThread { try cluster.resume() }
        try await Self.expectServingOnceBack(server)
        let caughtStatus = try await caught.status
        #expect(caughtStatus == 503 || caughtStatus == 201, "a write sent as the database went: \(caughtStatus)")
        #expect(try await ServerHTTP.send(.GET, list).status == 200)
        #expect(try await ServerHTTP.send(.GET, Self.health(server)).status == 200)
        let pins = try await ServerHTTP.pins(server.baseURL, of: "5")
        #expect(pins.count == 1)
    }

    /// Longer than PostgresNIO's pool retries on its own (it fails requests with an error of its own
    /// after a minute, which was a 500, and its back-off grows towards a minute): still a 503 that
    /// says so, and serving again within seconds of PostgreSQL's return.
    @Test func anOutageLongerThanAMinuteIsStill503AndEndsPromptly() async throws {
        let cluster = try await onOwnThread { try PostgresTestServer.startPrivate() }
        defer { cluster.stop() }
        let server = try await onOwnThread {
            try ServerProcess.start(databasePath: try cluster.createDatabase(), arguments: ["--open-writes", "--log-level", "notice"])
        }
        defer { server.stop() }
        #expect(try await ServerHTTP.send(.POST, server.baseURL + "/StudentLocation", body: ServerHTTP.pin("5")).status == 201)

        try await onOwnThread { try cluster.pause() }
        try await Self.expectRefusedAtOnce(server)
        // A load balancer's health checks meanwhile, past the minute after which the pool would fail
        // every request with an error of its own (its "circuit breaker").
        let pastAMinute = ContinuousClock.now + .seconds(65)
        while ContinuousClock.now < pastAMinute {
            #expect(try await ServerHTTP.send(.GET, Self.health(server)).status == 503)
            try await Task.sleep(for: .seconds(1))
        }
        try await Self.expectRefusedAtOnce(server)
        // Said once, not once a request or a second: the outage, and the requests refused before
        // it was known (at most the few that waited).
        let log = server.log
        #expect(log.components(separatedBy: "is unreachable").count - 1 == 1, "\(log)")
        #expect(log.components(separatedBy: "database unavailable").count - 1 <= 3, "\(log)")
        #expect(log.components(separatedBy: "health check: the database does not answer").count - 1 <= 3, "\(log)")
        #expect(log.components(separatedBy: "pin change notifications lost").count - 1 == 1, "\(log)")

        try await onOwnThread { try cluster.resume() }
        try await Self.expectServingOnceBack(server)
        #expect(try await ServerHTTP.pins(server.baseURL, of: "5").count == 1)
        #expect(server.log.components(separatedBy: "is unreachable").count - 1 == 1, "\(server.log)")
    }

    /// The first seconds of an outage: every request sent as PostgreSQL stops — reads the cache
    /// cannot answer, writes, logins, `/healthz`, the Parse paths — is answered, none by waiting for
    /// the database's deadline (three of the first second used to wait 10 s, one a `/healthz`; the
    /// log, at debug, says why each was refused), and the outage is one line at error level on every
    /// path, however many requests it refused (Parse's refusals were a line each).
    @Test func theFirstSecondsOfAnOutageAreBoundedAndLoggedOnce() async throws {
        let cluster = try await onOwnThread { try PostgresTestServer.startPrivate() }
        defer { cluster.stop() }
        let server = try await onOwnThread {
            try ServerProcess.start(databasePath: try cluster.createDatabase(), arguments: ["--open-writes", "--log-level", "debug"])
        }
        defer { server.stop() }
        let base = server.baseURL
        let root = "http://127.0.0.1:\(server.port)"
        #expect(try await ServerHTTP.send(.POST, base + "/StudentLocation", body: ServerHTTP.pin("5")).status == 201)

        // Each kind of request, over and over, from just before the stop until 3 s after it.
        let kinds: [(String, HTTPMethod, @Sendable (Int) -> String, String?, [(String, String)])] = [
            ("a list the cache does not hold", .GET, { base + "/StudentLocation?limit=\($0 % 900 + 1)" }, nil, []),
            ("a write", .POST, { _ in base + "/StudentLocation" }, ServerHTTP.pin("5"), []),
            ("a login", .POST, { _ in base + "/session" }, #"{"udacity":{"username":"nobody@example.com","password":"x"}}"#, []),
            ("/healthz", .GET, { _ in root + "/healthz" }, nil, []),
            ("a Parse list", .GET, { root + "/parse/classes/StudentLocation?limit=\($0 % 900 + 1)" }, nil, ServerHTTP.parseHeaders()),
            ("a Parse write", .POST, { _ in root + "/1/classes/StudentLocation" }, ServerHTTP.pin("5"), ServerHTTP.parseHeaders()),
        ]
        // The stop begins once a few rounds are under way.
        let roundsSent = AsyncStream<Void>.makeStream()
        let stopping = Task {
            for await _ in roundsSent.stream { break }
            try await onOwnThread { try cluster.pause() }
        }
        let replies = try await withThrowingTaskGroup(of: (String, Int).self) { group in
            for round in 0..<60 {
                for (name, method, url, body, headers) in kinds {
                    group.addTask {
                        let reply = try await ServerHTTP.send(
                            method, url(round), body: body, headers: headers, client: ServerHTTP.wide)
                        return (name, reply.status)
                    }
                }
                if round == 3 { roundsSent.continuation.yield() }
                try await Task.sleep(for: .milliseconds(50))
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        try await stopping.value
        for (name, status) in replies {
            // 429: sixty wrong passwords for one account pass its limit before the outage.
            #expect([200, 201, 403, 429, 503].contains(status), "\(name): \(status)")
        }
        #expect(replies.contains { $0.1 == 503 }, "the outage was met")
        #expect(!server.log.contains("did not answer within"), "a request waited for the deadline:\n\(server.log)")
        try await Self.expectRefusedAtOnce(server)
        // Lines at error level (the second word of a text line), not debug lines that say "error".
        let errors = server.log.split(separator: "\n").filter { $0.split(separator: " ").dropFirst().first == "error" }
        #expect(errors.count == 1, "\(errors.joined(separator: "\n"))")
        #expect(errors.first?.contains("is unreachable") == true)
    }

    /// A database that stops answering without closing anything (every PostgreSQL process stopped
    /// with SIGSTOP: the kernel still accepts connections, nobody replies) costs each request at most
    /// the server's time limit on a database operation (10 s), answered as a 503 — reads, writes,
    /// logins and `/healthz` alike: an answer at all, where a request that waited for good would end in
    /// the client's own timeout — and the server carries on by itself once the database does.
    @Test func aDatabaseThatStopsAnsweringCostsEachRequestABoundedWait() async throws {
        let cluster = try await onOwnThread { try PostgresTestServer.startPrivate() }
        defer { cluster.stop() }
        let url = try cluster.createDatabase()
        let server = try await onOwnThread {
            try ServerProcess.start(databasePath: url, arguments: ["--open-writes", "--log-level", "notice"])
        }
        defer { server.stop() }
        let base = server.baseURL
        #expect(try await ServerHTTP.send(.POST, base + "/StudentLocation", body: ServerHTTP.pin("7")).status == 201)

        try await onOwnThread { try cluster.freeze() }
        // At once, on connections of their own: none waits behind another.
        async let write = ServerHTTP.send(.POST, base + "/StudentLocation", body: ServerHTTP.pin("8"))
        async let login = ServerHTTP.send(
            .POST, base + "/session", body: #"{"udacity":{"username":"ada@example.com","password":"analytical"}}"#)
        async let query = ServerHTTP.send(.GET, base + "/StudentLocation?uniqueKey=7")
        async let health = ServerHTTP.send(.GET, Self.health(server))
        let replies = try await [("POST", write), ("login", login), ("GET by key", query), ("/healthz", health)]
        for (name, reply) in replies {
            #expect(reply.status == 503, "\(name): \(reply.status) \(reply.body)")
        }
        #expect(replies[0].1.json["error"] as? String == "The database is unavailable; try again in a few seconds.")
        // Found out: the requests after are refused without waiting.
        try await Self.expectRefusedAtOnce(server)

        try await onOwnThread { try cluster.thaw() }
        try await Self.expectServingOnceBack(server)
        #expect(try await ServerHTTP.send(.GET, Self.health(server)).status == 200)
        #expect(try await ServerHTTP.pins(base, of: "7").count == 1)
        #expect(try await ServerHTTP.pins(base, of: "5").count == 1)
    }

    /// Once the server has found the database gone (it logs that once), reads, writes and `/healthz`
    /// answer 503 saying the database is unavailable, refused as a known outage: without asking the
    /// database, and so without a line of their own at the server's level (a refusal by an operation
    /// that failed or timed out logs "database unavailable" or "does not answer" above debug).
    static func expectRefusedAtOnce(_ server: ServerProcess) async throws {
        #expect(eventually(timeout: .seconds(60)) { server.log.contains("is unreachable (") }, "\(server.log)")
        let requests: [(String, HTTPMethod, String, String?)] = [
            ("the newest pins", .GET, server.baseURL + "/StudentLocation?limit=100&order=-updatedAt", nil),
            ("a write", .POST, server.baseURL + "/StudentLocation", ServerHTTP.pin("6")),
            ("/healthz", .GET, health(server), nil),
        ]
        let linesBefore = server.log.split(separator: "\n").count
        for (name, method, url, body) in requests {
            let reply = try await ServerHTTP.send(method, url, body: body)
            #expect(reply.status == 503, "\(name): \(reply.status) \(reply.body)")
            if url.contains("/v1/") {
                #expect(reply.json["error"] as? String == "The database is unavailable; try again in a few seconds.", "\(reply.body)")
                #expect(reply.headers["Retry-After"].first == "5")
            }
        }
        let waited = server.log.split(separator: "\n").dropFirst(linesBefore).filter {
            ($0.contains("database unavailable") || $0.contains("does not answer")) && !$0.contains(" debug ")
        }
        #expect(waited.isEmpty, "refused by a failed operation, not as a known outage: \(waited)")
    }

    /// Once the server says the database answers again, the next write works: no back-off of the
    /// pool's to sit out (the deadline is only for a server that never says so).
    static func expectServingOnceBack(_ server: ServerProcess) async throws {
        #expect(eventually(timeout: .seconds(60)) { server.log.contains("answers again after") }, "\(server.log)")
        let write = try await ServerHTTP.send(.POST, server.baseURL + "/StudentLocation", body: ServerHTTP.pin("5"))
        #expect(write.status == 201, "the first write after: \(write.status) \(write.body)\n\(server.log)")
    }

    /// The server's `/healthz`, outside `/v1`.
    static func health(_ server: ServerProcess) -> String {
        "http://127.0.0.1:\(server.port)/healthz"
    }
}
