import Foundation
import OnTheMapClient
import OnTheMapModels
import OnTheMapRPC
import OnTheMapTestSupport
import Testing

@Suite("onthemapd against the real onthemap-server", .ownThreads)
struct DaemonUpstreamTests {
    @Test func loginErrorsAndSuccess() throws {
        let bed = try DaemonTestBed()
        defer { bed.tearDown() }
        #expect(try bed.result("status")["loggedIn"] == .bool(false))
        #expect(try bed.error("students").code == RPCError.notLoggedInCode)

        let wrong = try bed.error("login", params(("username", .string(DaemonTestBed.email)), ("password", .string("nope"))))
        #expect(wrong.code == RPCError.invalidCredentialsCode)
        #expect(wrong.message == "Account not found or invalid credentials.")
        #expect(wrong.isRetryable == false)
        let missing = try bed.error("login", params(("username", .string(DaemonTestBed.email))))
        #expect(missing.code == RPCError.invalidParamsCode)
        #expect(missing.data?["field"] == .string("password"))

        let account = try bed.result("login", params(("username", .string(DaemonTestBed.email)), ("password", .string(DaemonTestBed.password))))
        #expect(account == .object([("key", .string(bed.demoKey)), ("firstName", .string("Ada")), ("lastName", .string("Lovelace"))]))
        let status = try bed.result("status")
        #expect(status["loggedIn"] == .bool(true))
        #expect(status["students"]?["count"] == .integer(100))
        #expect(status["students"]?["stale"] == .bool(false))
        #expect(status["apiURL"] == .string(bed.server.baseURL))
        // The password never reaches the log, the session file or the cache.
        #expect(!bed.daemon.log.contains(DaemonTestBed.password))
        let sessionFile = try String(contentsOfFile: bed.daemon.sessionFile, encoding: .utf8)
        #expect(!sessionFile.contains(DaemonTestBed.password))
        #expect(try mode(bed.daemon.sessionFile) == 0o600)
        // The cache is saved after the refresh answers.
        #expect(eventually { (try? mode(bed.daemon.cacheFile)) == 0o600 })
        #expect(try mode(bed.daemon.socketPath) == 0o600)
        #expect(try mode((bed.daemon.socketPath as NSString).deletingLastPathComponent) == 0o700)
        let session = try JSONDecoder().decode(WireJSON.self, from: Data(sessionFile.utf8))
        let sessionID = try #require(session["session"]?["sessionID"]?.stringValue)
        #expect(!bed.daemon.log.contains(sessionID))
    }

    @Test func unplaceableRecordsAreLeftOutAndCounted() throws {
        let bed = try DaemonTestBed()
        defer { bed.tearDown() }
        try bed.login()
        #expect(try bed.result("status")["students"]?["skipped"] == .integer(0))

        // A record no client could post through the API: the newest pin moved off the globe in the
        // server's SQLite file itself, as a hand-edited or imported database might have it.
        let script = """
            import sqlite3, sys
            db = sqlite3.connect(sys.argv[1])
            db.execute("UPDATE studentLocation SET latitude = 123.0 WHERE objectId = (SELECT objectId FROM studentLocation ORDER BY updatedAt DESC LIMIT 1)")
            db.commit()
            """
        let edit = try runCommand("/usr/bin/env", ["python3", "-c", script, bed.server.databasePath])
        #expect(edit.status == 0, "\(edit.stderr)")
        _ = try bed.result("refresh")

        let students = try bed.result("status")["students"]
        #expect(students?["skipped"] == .integer(1))
        #expect(students?["skippedWhy"] == .string("1 record left out: latitude 123.0 is out of range (1)"))
        #expect(eventually { bed.daemon.log.contains("1 record left out: latitude 123.0 is out of range (1)") }, "the log names the field")
        #expect(students?["count"] == .integer(99))
        let list = try bed.result("students")
        guard case .array(let pins)? = list["students"] else { Issue.record("no students array"); return }
        #expect(pins.count == 99)
        #expect(pins.allSatisfy { ($0["latitude"]?.doubleValue).map { (-90...90).contains($0) } ?? false })
    }

    @Test func studentsSearchNearAndPaging() throws {
        let bed = try DaemonTestBed()
        defer { bed.tearDown() }
        try bed.login()
        let all = try bed.result("students")
        let students = try #require(all["students"].flatMap { if case .array(let a) = $0 { a } else { nil } })
        #expect(students.count == 100)
        #expect(all["total"] == .integer(100))
        let updated = students.compactMap { $0["updatedAt"]?.stringValue }
        #expect(updated == updated.sorted(by: >))
        #expect(Set(students.first.map { member in ["createdAt", "firstName", "lastName", "latitude", "longitude", "mapString", "mediaURL", "objectId", "uniqueKey", "updatedAt"].filter { member[$0] != nil } } ?? []).count == 10)

        let page = try bed.result("students", params(("limit", .integer(3)), ("skip", .integer(2))))
        #expect(page["students"] == .array(Array(students[2..<5])))

        // Case- and accent-insensitive, over names and place.
        let munich = try bed.result("students", params(("search", .string("MUNCHEN"))))
        let places = arrayOf(munich["students"]).compactMap { $0["mapString"]?.stringValue }
        #expect(!places.isEmpty)
        #expect(places.allSatisfy { $0 == "München" })
        let byName = try bed.result("students", params(("search", .string("lopez"))))
        #expect(arrayOf(byName["students"]).allSatisfy { $0["lastName"]?.stringValue == "López" })

        let near = try bed.result("students", params(("near", params(("latitude", .number(48.8566)), ("longitude", .number(2.3522)), ("radiusKm", .integer(1500))))))
        let distances = arrayOf(near["students"]).map { distance(48.8566, 2.3522, $0["latitude"]!.doubleValue!, $0["longitude"]!.doubleValue!) }
        #expect(!distances.isEmpty)
        #expect(distances == distances.sorted())
        #expect(distances.allSatisfy { $0 <= 1500 })

        let bad = try bed.error("students", params(("near", params(("latitude", .integer(100)), ("longitude", .integer(0))))))
        #expect(bad.code == RPCError.invalidParamsCode)
        #expect(bad.data?["field"] == .string("latitude"))
    }

    @Test func postPinNewExistsOverwriteAndErrors() throws {
        let bed = try DaemonTestBed()
        defer { bed.tearDown() }
        try bed.login()
        #expect(try bed.result("myPin") == params(("cached", .bool(false))))

        let badURL = try bed.error("postPin", params(("mapString", .string("Munich")), ("mediaURL", .string("ftp://x"))))
        #expect(badURL.code == RPCError.invalidURLCode)
        let unknown = try bed.error("postPin", params(("mapString", .string("Xyzzyville")), ("mediaURL", .string("https://a.example"))))
        #expect(unknown.code == RPCError.placeNotFoundCode)

        let created = try bed.result("postPin", params(("mapString", .string("München")), ("mediaURL", .string("https://ada.example"))))
        #expect(created["created"] == .bool(true))
        #expect(created["pin"]?["latitude"]?.doubleValue.map { abs($0 - 48.137) < 0.1 } == true)
        #expect(created["pin"]?["uniqueKey"] == .string(bed.demoKey))
        #expect(created["pin"]?["firstName"] == .string("Ada"))
        let objectId = try #require(created["pin"]?["objectId"]?.stringValue)

        let exists = try bed.error("postPin", params(("mapString", .string("Paris")), ("mediaURL", .string("https://ada.example"))))
        #expect(exists.code == RPCError.pinExistsCode)
        #expect(exists.data?["pin"]?["objectId"] == .string(objectId))

        let moved = try bed.result("postPin", params(
            ("mapString", .string("Somewhere")), ("mediaURL", .string("https://ada.example/2")), ("latitude", .number(-33.9)),
            ("longitude", .number(18.4)), ("overwrite", .bool(true))))
        #expect(moved["created"] == .bool(false))
        #expect(moved["pin"]?["objectId"] == .string(objectId))
        let mine = try bed.result("myPin")
        #expect(mine["pin"]?["mapString"] == .string("Somewhere"))
        #expect(mine["pin"]?["latitude"] == .number(-33.9))
        // The cache was refreshed after the post: the pin is the newest student.
        let newest = arrayOf(try bed.result("students", params(("limit", .integer(1))))["students"]).first
        #expect(newest?["objectId"] == .string(objectId))
        // One user, one pin upstream.
        let upstream = try bed.result("students", params(("search", .string("Ada Lovelace"))))
        #expect(arrayOf(upstream["students"]).filter { $0["uniqueKey"] == .string(bed.demoKey) }.count == 1)
    }

    @Test func logoutForgetsEverything() throws {
        let bed = try DaemonTestBed()
        defer { bed.tearDown() }
        try bed.login()
        #expect(eventually { FileManager.default.fileExists(atPath: bed.daemon.cacheFile) })
        let result = try bed.result("logout")
        #expect(result == params(("loggedOut", .bool(true)), ("upstream", .string("ended"))))
        #expect(try bed.result("status")["loggedIn"] == .bool(false))
        #expect(try bed.result("status")["students"]?["count"] == .integer(0))
        #expect(try bed.error("students").code == RPCError.notLoggedInCode)
        #expect(!FileManager.default.fileExists(atPath: bed.daemon.sessionFile))
        #expect(!FileManager.default.fileExists(atPath: bed.daemon.cacheFile))

        // Offline logout still succeeds locally, and says so.
        try bed.login()
        bed.server.stopServer()
        let offline = try bed.result("logout")
        #expect(offline["loggedOut"] == .bool(true))
        #expect(offline["upstream"]?.stringValue?.contains("not reached") == true)
        #expect(!FileManager.default.fileExists(atPath: bed.daemon.sessionFile))
    }

    @Test func upstreamDownServesStaleThenRecovers() throws {
        let bed = try DaemonTestBed(daemonArguments: ["--refresh-interval", "1"])
        defer { bed.tearDown() }
        try bed.login()
        bed.server.stopServer()
        let refresh = try bed.error("refresh")
        #expect(refresh.code == RPCError.upstreamUnreachableCode)
        #expect(refresh.isRetryable)
        let stale = try bed.result("students", params(("limit", .integer(5))))
        #expect(arrayOf(stale["students"]).count == 5)
        #expect(stale["stale"] == .bool(true))
        #expect(try bed.result("status")["students"]?["lastError"]?.stringValue?.contains("Cannot reach") == true)

        try bed.server.restartServer()
        #expect(try eventually { try bed.result("status")["students"]?["stale"] == .bool(false) })
        #expect(try bed.result("status")["students"]?["lastError"] == nil)
    }

    /// A refresh asked for by a client that fails (`onthemap refresh` with the server down) is
    /// tried again by the refresher, with its backoff, not at the next round: with the default
    /// interval the bars said "stale" for five minutes after the server was back.
    @Test func aFailedRefreshIsTriedAgainSoonNotAtTheNextRound() throws {
        let bed = try DaemonTestBed()
        defer { bed.tearDown() }
        try bed.login()
        bed.server.stopServer()
        #expect(try bed.error("refresh").code == RPCError.upstreamUnreachableCode)
        #expect(try bed.result("status")["students"]?["stale"] == .bool(true))
        try bed.server.restartServer()
        #expect(try eventually(timeout: .seconds(120)) { try bed.result("status")["students"]?["stale"] == .bool(false) })
    }

    @Test func revokedSessionLogsOut() throws {
        let bed = try DaemonTestBed()
        defer { bed.tearDown() }
        try bed.login()
        // End the daemon's session behind its back, with the XSRF token from its session file.
        let saved = try JSONDecoder().decode(WireJSON.self, from: Data(contentsOf: URL(fileURLWithPath: bed.daemon.sessionFile)))
        let token = try #require(saved["session"]?["xsrfToken"]?.stringValue)
        let logout = try runCommand("/usr/bin/curl", ["-sf", "-X", "DELETE", "-H", "X-XSRF-TOKEN: \(token)", bed.server.baseURL + "/session"])
        #expect(logout.status == 0)

        let subscriber = try bed.connect()
        _ = try subscriber.call("subscribe", params: params(("events", .array([.string("session")]))))
        let error = try bed.error("postPin", params(("mapString", .string("Paris")), ("mediaURL", .string("https://a.example"))))
        #expect(error.code == RPCError.sessionExpiredCode)
        #expect(try bed.result("status")["loggedIn"] == .bool(false))
        let notification = try #require(try subscriber.read(WireJSON.self))
        #expect(notification["method"] == .string("sessionChanged"))
        #expect(notification["params"]?["loggedIn"] == .bool(false))
    }

    /// A refused login asks whether the session in hand still stands: kept when it does (a typo in
    /// the password ends nothing), ended when the server ended it meanwhile (a disabled account, a
    /// new password), so `status` does not say "logged in" until the next refresh.
    @Test func aRefusedLoginChecksTheSessionInHand() throws {
        let bed = try DaemonTestBed()
        defer { bed.tearDown() }
        try bed.login()
        let wrong = params(("username", .string(DaemonTestBed.email)), ("password", .string("not the password")))
        _ = try bed.error("login", wrong)
        #expect(try bed.result("status")["loggedIn"] == .bool(true), "a typo ends nothing")
        let saved = try JSONDecoder().decode(WireJSON.self, from: Data(contentsOf: URL(fileURLWithPath: bed.daemon.sessionFile)))
        let token = try #require(saved["session"]?["xsrfToken"]?.stringValue)
        let logout = try runCommand("/usr/bin/curl", ["-sf", "-X", "DELETE", "-H", "X-XSRF-TOKEN: \(token)", bed.server.baseURL + "/session"])
        #expect(logout.status == 0)
        _ = try bed.error("login", wrong)
        #expect(try bed.result("status")["loggedIn"] == .bool(false), "the server had ended it")
    }

    @Test func restartKeepsSessionAndCachedData() throws {
        let bed = try DaemonTestBed()
        defer { bed.tearDown() }
        try bed.login()
        let before = try bed.result("students")
        #expect(bed.daemon.stop() == 0)
        bed.server.stopServer()
        try bed.daemon.start()
        // Logged in, with the same list, before any upstream request could have succeeded.
        #expect(try bed.result("status")["loggedIn"] == .bool(true))
        let after = try bed.result("students")
        #expect(after["students"] == before["students"])
        #expect(after["total"] == .integer(100))
    }

    /// A daemon started against another API does not send the saved session there: it starts
    /// logged out, says why, and keeps the file for a start against the API it was made with.
    @Test func aSessionIsNotTakenToAnotherAPI() throws {
        let bed = try DaemonTestBed()
        defer { bed.tearDown() }
        try bed.login()
        #expect(bed.daemon.stop() == 0)
        // Nothing listens there: a daemon that took the session along would say the API is unreachable.
        let elsewhere = "http://127.0.0.1:9/v1"
        let other = try DaemonProcess(apiURL: elsewhere, home: bed.daemon.home)
        defer { other.stop() }
        let status = try RPCConnection(path: other.socketPath, timeout: .seconds(30)).call("status").get()
        #expect(status["loggedIn"] == .bool(false), "\(status.serialized)")
        #expect(eventually { other.log.contains("the saved session was made with \(bed.server.baseURL), not \(elsewhere): log in again") }, "\(other.log)")
        #expect(other.stop() == 0)
        // Back against the API it was made with: still logged in.
        try bed.daemon.start()
        #expect(try bed.result("status")["loggedIn"] == .bool(true))
    }
}

func arrayOf(_ value: WireJSON?) -> [WireJSON] {
    if case .array(let elements)? = value { return elements }
    return []
}

/// Great-circle distance in km, worked out here apart from `Geo.distanceKm`: the order the daemon
/// gives is checked against a second computation, not against itself.
func distance(_ lat1: Double, _ lon1: Double, _ lat2: Double, _ lon2: Double) -> Double {
    let r = Double.pi / 180
    let a = sin((lat2 - lat1) * r / 2) * sin((lat2 - lat1) * r / 2)
        + cos(lat1 * r) * cos(lat2 * r) * sin((lon2 - lon1) * r / 2) * sin((lon2 - lon1) * r / 2)
    return 6371.0088 * 2 * atan2(a.squareRoot(), (1 - a).squareRoot())
}

func mode(_ path: String) throws -> Int {
    ((try FileManager.default.attributesOfItem(atPath: path))[.posixPermissions] as? Int ?? 0) & 0o777
}

@Suite("onthemapd paging and shutdown", .ownThreads)
struct DaemonPagingTests {
    @Test func cacheSizePagesThroughTheAPI() throws {
        let bed = try DaemonTestBed(students: 1300, daemonArguments: ["--cache-size", "1200"])
        defer { bed.tearDown() }
        try bed.login()
        let status = try bed.result("status")
        #expect(status["students"]?["count"] == .integer(1200))
        let cached = try bed.result("students", params(("limit", .integer(1200))))
        let ids = arrayOf(cached["students"]).compactMap { $0["objectId"]?.stringValue }
        #expect(cached["source"] == .string("cache"))
        #expect(ids.count == 1200)
        #expect(Set(ids).count == 1200)  // pages neither overlap nor repeat
        // More than the cache holds: the server's list, all 1,300, for this answer.
        let all = try bed.result("students", params(("limit", .integer(2000))))
        #expect(all["source"] == .string("server"))
        #expect(Set(arrayOf(all["students"]).compactMap { $0["objectId"]?.stringValue }).count == 1300)
        #expect(all["total"] == .integer(1300))
        #expect(all["limitedTo"] == nil)
    }

    /// A search looks at the server's newest 10,000 (`StudentsParams.maximumFetched`), and says so only
    /// when the server holds more: a server of exactly 10,000 was said to have "more".
    @Test func aSearchSaysTheServerHasMoreOnlyWhenItDoes() throws {
        let bed = try DaemonTestBed(students: StudentsParams.maximumFetched)
        defer { bed.tearDown() }
        try bed.login()
        // A search looks at the whole list; a limit beyond the bound asks for more than it.
        let search = params(("search", .string("a")), ("limit", .integer(1)))
        let beyondTheBound = params(("limit", .integer(StudentsParams.maximumFetched * 10)))
        for asked in [search, beyondTheBound] {
            let exactly = try bed.result("students", asked)
            #expect(exactly["source"] == .string("server"))
            #expect(exactly["limitedTo"] == nil, "\(exactly["limitedTo"] ?? .null)")
        }
        // One more pin (the demo account has none yet): now the server has more than is looked at.
        _ = try bed.result("postPin", params(("mapString", .string("Lima, Peru")), ("mediaURL", .string("https://example.com/ada"))))
        for asked in [search, beyondTheBound] {
            let beyond = try bed.result("students", asked)
            #expect(beyond["limitedTo"] == .integer(StudentsParams.maximumFetched), "\(beyond["limitedTo"] ?? .null)")
        }
    }

    /// A list shorter than the cache size ends at its first short page: a refresh of 1,500 with
    /// room for 10,000 asks for the first page, then three at a time (`OnTheMapAPIClient.pagesAtOnce`), and
    /// stops there: four pages, not ten. The next refresh sends the list's ETag: the server answers
    /// 304, and the cache is kept.
    @Test func aShortPageEndsTheRefreshAndAnUnchangedListIsNotFetchedAgain() throws {
        let logs = try TemporaryDirectory()
        defer { logs.remove() }
        let accessLog = logs.file("access.log")
        let bed = try DaemonTestBed(
            students: 1500, serverArguments: ["--access-log", accessLog], daemonArguments: ["--cache-size", "10000"])
        defer { bed.tearDown() }
        try bed.login()
        /// The statuses of the server's answers to `GET /StudentLocation`, in order.
        func listAnswers() -> [Int] {
            ((try? String(contentsOfFile: accessLog, encoding: .utf8)) ?? "").split(separator: "\n")
                .filter { $0.contains("\"GET\"") && $0.contains("StudentLocation") }
                .compactMap { line in (try? JSONText.parse(line))?["status"]?.intValue }
        }
        // The server logs a request as it finishes it, a moment after the daemon has its answer.
        let wholeList = [200, 200, 200, 200]
        #expect(eventually { listAnswers() == wholeList }, "\(listAnswers())")
        #expect(try bed.result("status")["students"]?["count"] == .integer(1500))
        let refreshed = try bed.result("refresh")
        #expect(refreshed["count"] == .integer(1500))
        // Unchanged: the first page and the last one (of 500, at 1,000) each answered 304.
        #expect(eventually { listAnswers() == wholeList + [304, 304] }, "\(listAnswers())")
        #expect(try bed.result("status")["students"]?["count"] == .integer(1500))

        // The oldest pin, deleted on the server: the first page is as it was, the last page is not.
        guard case .array(let students) = try bed.result("students", params(("limit", .integer(1500))))["students"] else {
            Issue.record("students gave no list")
            return
        }
        let oldest = try #require(students.last?["objectId"]?.stringValue)
        let removed = try runCommand(
            BuiltProducts.path("onthemap-server"), ["pin", "remove", oldest, "--yes", "--database", bed.server.databasePath])
        #expect(removed.status == 0, "\(removed.stderr)")
        #expect(try bed.result("refresh")["count"] == .integer(1499))
        #expect(eventually { listAnswers() == wholeList + [304, 304] + [304, 200] + wholeList }, "\(listAnswers())")
        let afterDeletion = listAnswers()

        // A changed list is fetched whole again.
        _ = try bed.result(
            "postPin", params(("mapString", .string("Lima, Peru")), ("mediaURL", .string("https://ada.example")),
                ("latitude", .number(-12.05)), ("longitude", .number(-77.04))))
        _ = try bed.result("refresh")
        // One more GET finds your pin for the write (200), then the whole list again.
        #expect(eventually { listAnswers() == afterDeletion + [200] + wholeList }, "\(listAnswers())")
    }

    /// A port that accepts connections and never answers: a request sent there stays in flight.
    /// The socket stays open (and the port silent) as long as the returned descriptor is.
    private func silentUpstream() -> (descriptor: Int32, port: UInt16) {
        let silent = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(silent, $0, length) } }
        _ = withUnsafeMutablePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(silent, $0, &length) } }
        listen(silent, 16)
        return (silent, UInt16(bigEndian: address.sin_port))
    }

    @Test func sigtermAnswersInFlightRequestsAndExits() throws {
        // An upstream that never answers keeps the login in flight.
        let (silent, port) = silentUpstream()
        defer { close(silent) }
        let daemon = try DaemonProcess(apiURL: "http://127.0.0.1:\(port)/v1")
        defer { daemon.tearDown() }
        let client = try RPCConnection(path: daemon.socketPath, timeout: .seconds(20))
        try client.send(line: #"{"jsonrpc":"2.0","id":1,"method":"login","params":{"username":"a@b.c","password":"p"}}"#)
        let observer = try RPCConnection(path: daemon.socketPath)
        #expect(eventually { (try? observer.result(StatusParams()))?.busy.contains("login") == true }, "the login is in flight")
        let started = ContinuousClock.now
        daemon.signal(SIGTERM)
        let reply = try #require(try client.read(WireJSON.self))
        #expect(reply["id"] == .integer(1))
        #expect(reply["error"] != nil)
        #expect(daemon.stop(timeout: 20) == 0)
        // Not after the upstream's own timeouts (30 s for the answer): the shutdown cut the request.
        #expect(ContinuousClock.now - started < .seconds(25))
        // The log says it stopped, and why it did not answer the login.
        // (The log is read from the daemon's output as it comes: its last lines may follow the exit.)
        #expect(eventually { daemon.log.contains("stopping: answering the requests already read, then exiting") }, "\(daemon.log)")
        #expect(eventually { daemon.log.contains("stopped") }, "\(daemon.log)")
    }

    /// A client that closed its sending side after its request (`nc -N`, socat, a script's `printf |`)
    /// still gets its answer when the daemon stops: there is no input left to close (the attempt
    /// fails), and that failure must not close the connection with the answer still to come.
    @Test func sigtermAnswersAClientThatClosedItsSendingSide() throws {
        let (silent, port) = silentUpstream()
        defer { close(silent) }
        let daemon = try DaemonProcess(apiURL: "http://127.0.0.1:\(port)/v1")
        defer { daemon.tearDown() }
        let client = try RawSocket(path: daemon.socketPath)
        try client.sendAll(#"{"jsonrpc":"2.0","id":7,"method":"login","params":{"username":"a@b.c","password":"p"}}"# + "\n")
        shutdown(client.fd, Int32(SHUT_WR))
        // The login is read (its end of input with it, in the same read) and waits on the upstream.
        let observer = try RPCConnection(path: daemon.socketPath)
        #expect(eventually { (try? observer.result(StatusParams()))?.busy.contains("login") == true }, "the login is in flight")
        daemon.signal(SIGTERM)
        let reply = client.receive(timeout: .seconds(25)) { $0.last == UInt8(ascii: "\n") }
        let answer = try WireCoding.decode(WireJSON.self, from: reply)
        #expect(answer["id"] == .integer(7), "reply: \(String(decoding: reply, as: UTF8.self)); log: \(daemon.log)")
        #expect(answer["error"] != nil)
        #expect(daemon.stop(timeout: 20) == 0)
    }
}

@Suite("onthemapd persisted state", .ownThreads)
struct DaemonPersistedStateTests {
    @Test func anExpiredSavedSessionIsDropped() throws {
        let home = try TemporaryDirectory(prefix: "onthemapd-expired")
        let state = home.file("state/onthemap")
        try FileManager.default.createDirectory(atPath: state, withIntermediateDirectories: true)
        let expired = #"{"session":{"accountKey":"1","sessionID":"1700000000Sabc","xsrfToken":"x","expiration":0},"account":{"key":"1","firstName":"Ada","lastName":"L"}}"#
        try expired.write(toFile: state + "/session.json", atomically: true, encoding: .utf8)
        let daemon = try DaemonProcess(apiURL: "http://127.0.0.1:9/v1", home: home)
        defer { daemon.tearDown() }
        let status = try RPCConnection(path: daemon.socketPath).call("status").get()
        #expect(status["loggedIn"] == .bool(false))
        #expect(!FileManager.default.fileExists(atPath: daemon.sessionFile))
        #expect(eventually { daemon.log.contains("expired") })
    }
}
