import Foundation
import Hummingbird
import HummingbirdTesting
import OnTheMapClient
import OnTheMapModels
import OnTheMapRPC
import OnTheMapTestSupport
import Testing

/// An upstream that stores any link and limits logins: the daemon hands clients web links only, and
/// says a rate limit's wait in words with its own code.
@Suite("A hostile or strict upstream", .ownThreads)
struct HostileUpstreamTests {
    static let hostileLinks = [
        "file:///etc/passwd", "javascript:alert(document.domain)", "data:text/html,x", "ssh://evil.example", " JaVaScRiPt:x",
        "--manual",
    ]

    /// What `GET /users/42` answers.
    enum Profile: CaseIterable { case ada, failing, garbled }

    /// Holds the list's requests until opened.
    actor Gate {
        private var isOpen = false
        private var waiting: [CheckedContinuation<Void, Never>] = []
        func pass() async {
            if isOpen { return }
            await withCheckedContinuation { waiting.append($0) }
        }
        func open() {
            isOpen = true
            waiting.forEach { $0.resume() }
            waiting = []
        }
    }

    /// Counts the sessions ended (`DELETE /session`).
    actor Logouts {
        var count = 0
        func add() { count += 1 }
    }

    /// Logs in, then lists one student per hostile link, and one with a real link; with
    /// `ignoringLimit`, that many students on every page, whatever `limit` and `skip` asked for; with
    /// `withBrokenRecords`, two more records, one without `firstName` and one with `latitude` null.
    private static func application(
        rateLimited: Bool, profile: Profile = .ada, logouts: Logouts = Logouts(), ignoringLimit: Int? = nil,
        withBrokenRecords: Bool = false, listGate: Gate? = nil
    ) -> some ApplicationProtocol {
        let router = Router()
        router.delete("v1/session") { _, _ -> Response in
            await logouts.add()
            return Response(status: .ok, body: .init(byteBuffer: ByteBuffer(string: #"{"session":{"id":"s","expiration":"2099-01-01T00:00:00.000000Z"}}"#)))
        }
        router.post("v1/session") { _, _ -> Response in
            if rateLimited {
                var headers = HTTPFields()
                headers[.retryAfter] = "899"
                return Response(
                    status: .tooManyRequests, headers: headers,
                    body: .init(byteBuffer: ByteBuffer(string: #"{"status":429,"error":"Too many login attempts. Try again in 899 seconds."}"#)))
            }
            return Response(
                status: .ok,
                body: .init(byteBuffer: ByteBuffer(string: #")]}'"# + "\n" + #"{"account":{"registered":true,"key":"42"},"session":{"id":"s","expiration":"2099-01-01T00:00:00.000000Z"}}"#)))
        }
        router.get("v1/users/42") { _, _ -> Response in
            switch profile {
            case .ada:
                Response(status: .ok, body: .init(byteBuffer: ByteBuffer(string: #"{"first_name":"Ada","last_name":"Lovelace","key":"42"}"#)))
            case .failing:
                Response(status: .internalServerError, body: .init(byteBuffer: ByteBuffer(string: #"{"status":500,"error":"database down"}"#)))
            case .garbled:
                Response(status: .ok, body: .init(byteBuffer: ByteBuffer(string: #"{"nickname":"no names here"}"#)))
            }
        }
        router.get("v1/StudentLocation") { _, _ -> Response in
            await listGate?.pass()
            let links = ignoringLimit.map { count in (0..<count).map { "https://ok.example/\($0)" } } ?? hostileLinks + ["https://ok.example/me"]
            var records = links.enumerated().map { index, link in
                let day = "2026-01-0\(index % 9 + 1)T00:00:00.000Z"
                return WireJSON.object([
                    ("createdAt", .string(day)), ("firstName", .string("S\(index)")),
                    ("lastName", .string("L")), ("latitude", .number(1)), ("longitude", .number(2)),
                    ("mapString", .string("Somewhere")), ("mediaURL", .string(link)), ("objectId", .string("o\(index)")),
                    ("uniqueKey", .string("u\(index)")), ("updatedAt", .string(day)),
                ])
            }
            if withBrokenRecords {
                let day = "2026-01-09T00:00:00.000Z"
                records.append(.object([
                    ("createdAt", .string(day)), ("lastName", .string("Nameless")), ("latitude", .number(3)),
                    ("longitude", .number(4)), ("mapString", .string("Nowhere")), ("mediaURL", .string("https://ok.example/n")),
                    ("objectId", .string("NoFirstName")), ("uniqueKey", .string("u-n")), ("updatedAt", .string(day)),
                ]))
                records.append(.object([
                    ("createdAt", .string(day)), ("firstName", .string("Null")), ("lastName", .string("Island")),
                    ("latitude", .null), ("longitude", .number(0)), ("mapString", .string("Null Island")),
                    ("mediaURL", .string("https://ok.example/z")), ("objectId", .string("NullLatitude")),
                    ("uniqueKey", .string("u-z")), ("updatedAt", .string(day)),
                ]))
            }
            return Response(status: .ok, body: .init(byteBuffer: ByteBuffer(string: WireJSON.object([("results", .array(records))]).serialized)))
        }
        return Application(router: router, configuration: .init(address: .hostname("127.0.0.1", port: 0)))
    }

    @Test func onlyWebLinksReachClients() async throws {
        try await Self.application(rateLimited: false).test(.live) { server in
            let daemon = try DaemonProcess(apiURL: "http://127.0.0.1:\(try #require(server.port))/v1")
            defer { daemon.tearDown() }
            let (students, map) = try await onOwnThread { () throws -> (StudentsResult, MapResult) in
                let client = try RPCConnection(path: daemon.socketPath, timeout: .seconds(30))
                _ = try client.call("login", params: params(("username", .string("ada@example.com")), ("password", .string("pw")))).get()
                return (try client.result(StudentsParams()), try client.result(MapParams(width: 40, height: 12)))
            }
            let links = students.students.map(\.student.mediaURL)
            #expect(links.count == Self.hostileLinks.count + 1)
            #expect(Set(links) == ["", "https://ok.example/me"], "\(links)")
            #expect(Set(map.pins.map(\.student.mediaURL)).isSubset(of: ["", "https://ok.example/me"]))
        }
    }

    /// A record without a required field is left out and counted, the field named in `status` and
    /// in the daemon's log; it never becomes a student with an empty name or a pin at 0,0.
    @Test func recordsWithoutARequiredFieldAreLeftOutAndNamed() async throws {
        try await Self.application(rateLimited: false, withBrokenRecords: true).test(.live) { server in
            let daemon = try DaemonProcess(apiURL: "http://127.0.0.1:\(try #require(server.port))/v1")
            defer { daemon.tearDown() }
            let (students, map, status) = try await onOwnThread { () throws -> (StudentsResult, MapResult, StatusResult) in
                let client = try RPCConnection(path: daemon.socketPath, timeout: .seconds(30))
                _ = try client.call("login", params: params(("username", .string("ada@example.com")), ("password", .string("pw")))).get()
                return (
                    try client.result(StudentsParams()), try client.result(MapParams(width: 40, height: 12)),
                    try client.result(StatusParams())
                )
            }
            let why = "2 records left out: firstName is missing (1), latitude is null (1)"
            #expect(status.students.skipped == 2)
            #expect(status.students.skippedWhy == why)
            #expect(status.students.count == Self.hostileLinks.count + 1)
            let ids = Set(students.students.map(\.student.objectId))
            #expect(ids.isDisjoint(with: ["NoFirstName", "NullLatitude"]), "\(ids)")
            #expect(students.students.allSatisfy { !$0.student.firstName.isEmpty })
            let pins = map.pins.map(\.student)
            #expect(!pins.contains { $0.latitude == 0 && $0.longitude == 0 }, "a pin at 0,0")
            #expect(map.limitedTo == nil, "a cache of 100 holding \(status.students.count) is not full")
            #expect(eventually { daemon.log.contains(why) }, "the log names the fields: \(daemon.log)")
        }
    }

    /// A cache whose size the list filled counts the records it left out: it holds fewer students
    /// than its size, yet the server may have more, and the map says it shows only the newest.
    @Test func aCacheFilledWithRecordsLeftOutIsFull() async throws {
        try await Self.application(rateLimited: false, withBrokenRecords: true).test(.live) { server in
            let served = Self.hostileLinks.count + 3
            let daemon = try DaemonProcess(
                apiURL: "http://127.0.0.1:\(try #require(server.port))/v1", arguments: ["--cache-size", String(served)])
            defer { daemon.tearDown() }
            let map = try await onOwnThread { () throws -> MapResult in
                let client = try RPCConnection(path: daemon.socketPath, timeout: .seconds(30))
                _ = try client.call("login", params: params(("username", .string("ada@example.com")), ("password", .string("pw")))).get()
                return try client.result(MapParams(width: 40, height: 12))
            }
            #expect(map.limitedTo == served - 2, "\(String(describing: map.limitedTo)) of \(served) served, 2 left out")
        }
    }

    /// Between a login and the first list, a status bar says the list is on its way: grey, "📍 …",
    /// "fetching the student list", not a green "📍 0" (issue 40). Read by the real CLI, as a bar
    /// runs it, while the upstream holds the list back; then green with the count.
    @Test func theBarSaysFetchingUntilTheFirstListArrives() async throws {
        let gate = Gate()
        try await Self.application(rateLimited: false, listGate: gate).test(.live) { server in
            let daemon = try DaemonProcess(apiURL: "http://127.0.0.1:\(try #require(server.port))/v1")
            defer { daemon.tearDown() }
            let bar = { () throws -> [String: String] in
                let result = try runCommand(
                    BuiltProducts.path("onthemap"), ["status", "--format", "waybar"],
                    environment: ["ONTHEMAP_SOCKET": daemon.socketPath, "PATH": "/usr/bin:/bin"])
                let object = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any]
                return (object ?? [:]).compactMapValues { $0 as? String }
            }
            let login = Task {
                try await onOwnThread {
                    try RPCConnection(path: daemon.socketPath, timeout: .seconds(60))
                        .call("login", params: params(("username", .string("ada@example.com")), ("password", .string("pw")))).get()
                }
            }
            var fetching: [String: String] = [:]
            #expect(try eventually { fetching = try bar(); return fetching["class"] == "fetching" }, "\(fetching)")
            #expect(fetching["text"] == "📍 …", "\(fetching)")
            #expect(fetching["tooltip"]?.contains("fetching the student list") == true, "\(fetching)")
            await gate.open()
            _ = try await login.value
            var ok: [String: String] = [:]
            #expect(try eventually { ok = try bar(); return ok["class"] == "ok" }, "\(ok)")
            #expect(ok["text"] == "📍 \(Self.hostileLinks.count + 1)", "\(ok)")
        }
    }

    /// An upstream that ignores `limit` and `skip` (1,500 students on every page) fills the cache
    /// to its size and no further, each student once: the daemon kept every page whole, a million
    /// students for a cache of 100,000 (1.8 GB).
    @Test func pagesLargerThanAskedForAreCutToTheCacheSize() async throws {
        try await Self.application(rateLimited: false, ignoringLimit: 1500).test(.live) { server in
            let daemon = try DaemonProcess(apiURL: "http://127.0.0.1:\(try #require(server.port))/v1", arguments: ["--cache-size", "2500"])
            defer { daemon.tearDown() }
            let (students, status) = try await onOwnThread { () throws -> (StudentsResult, StatusResult) in
                let client = try RPCConnection(path: daemon.socketPath, timeout: .seconds(30))
                _ = try client.call("login", params: params(("username", .string("ada@example.com")), ("password", .string("pw")))).get()
                return (try client.result(StudentsParams(limit: 2500)), try client.result(StatusParams()))
            }
            let ids = students.students.map(\.student.objectId)
            #expect(ids.count == 1000 && Set(ids).count == 1000, "\(ids.count) students, \(Set(ids).count) of them different")
            #expect(status.students.count == 1000, "\(status.students.count)")
        }
    }

    @Test func aRateLimitIsItsOwnErrorWithTheWaitInWords() async throws {
        try await Self.application(rateLimited: true).test(.live) { server in
            let daemon = try DaemonProcess(apiURL: "http://127.0.0.1:\(try #require(server.port))/v1")
            defer { daemon.tearDown() }
            let login = try await onOwnThread {
                try RPCConnection(path: daemon.socketPath, timeout: .seconds(30))
                    .call("login", params: params(("username", .string("ada@example.com")), ("password", .string("pw"))))
            }
            guard case .failure(let error) = login else {
                Issue.record("login succeeded")
                return
            }
            #expect(error.code == RPCError.rateLimitedCode)
            #expect(error.message == "Too many attempts: try again in 15 minutes.")
            #expect(error.data?["retryAfter"] == .integer(899))
        }
    }

    /// A login whose account's names cannot be read is not kept: no nameless pins later, no session
    /// left open upstream, and the reason now.
    @Test(arguments: [Profile.failing, .garbled])
    func aLoginWithoutTheAccountsNameIsNotKept(profile: Profile) async throws {
        let logouts = Logouts()
        try await Self.application(rateLimited: false, profile: profile, logouts: logouts).test(.live) { server in
            let daemon = try DaemonProcess(apiURL: "http://127.0.0.1:\(try #require(server.port))/v1")
            defer { daemon.tearDown() }
            let (login, status) = try await onOwnThread { () throws -> (Result<WireJSON, RPCError>, StatusResult) in
                let client = try RPCConnection(path: daemon.socketPath, timeout: .seconds(30))
                let login = try client.call("login", params: params(("username", .string("ada@example.com")), ("password", .string("pw"))))
                return (login, try client.result(StatusParams()))
            }
            guard case .failure(let error) = login else {
                Issue.record("login succeeded without the account's name")
                return
            }
            #expect(error.message.hasPrefix("Your account's name could not be read, so the login was not kept: "), "\(error.message)")
            #expect(error.code == RPCError.upstreamErrorCode)
            #expect(!status.loggedIn)
            #expect(await logouts.count == 1, "the session made for it ended upstream")
        }
    }
}
