import Foundation
import Hummingbird
import HummingbirdTesting
import OnTheMapClient
import OnTheMapModels
import OnTheMapRPC
import OnTheMapTestSupport
import Synchronization
import Testing

/// Every way a session ends is noticed, logs the user out, clears the cached students, and tells
/// subscribers why.
@Suite("Sessions end loudly", .ownThreads)
struct SessionEndTests {
    /// A connection subscribed to session and students events.
    private func subscriber(_ bed: DaemonTestBed) throws -> RPCConnection {
        let connection = try bed.connect(timeout: .seconds(30))
        _ = try connection.call("subscribe", params: params(("events", .array([.string("session"), .string("students")])))).get()
        return connection
    }

    /// Reads notifications until a `sessionChanged` arrives; its params.
    private func nextSessionChange(_ connection: RPCConnection) throws -> WireJSON? {
        while let message = try connection.read(WireJSON.self) {
            if message["method"] == .string("sessionChanged") { return message["params"] }
        }
        return nil
    }

    /// What a logged-out daemon must show once a session ended.
    private func expectLoggedOutAndCleared(_ bed: DaemonTestBed, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let status = try bed.result("status")
        #expect(status["loggedIn"] == .bool(false), sourceLocation: sourceLocation)
        #expect(status["students"]?["count"] == .integer(0), sourceLocation: sourceLocation)
        #expect(!FileManager.default.fileExists(atPath: bed.daemon.cacheFile), sourceLocation: sourceLocation)
        #expect(!FileManager.default.fileExists(atPath: bed.daemon.sessionFile), sourceLocation: sourceLocation)
    }

    @Test("A session that expires while the daemon runs is announced at its expiry, with no call needed")
    func expiryIsAnnounced() async throws {
        let bed = try DaemonTestBed(students: 20, serverArguments: ["--session-lifetime", "4"])
        defer { bed.tearDown() }
        try bed.login()
        #expect(try bed.result("status")["students"]?["count"] == .integer(20))
        let change = try #require(try await onOwnThread { try nextSessionChange(try subscriber(bed)) })
        #expect(change["loggedIn"] == .bool(false))
        #expect(change["reason"] == .string("expired"))
        try expectLoggedOutAndCleared(bed)
    }

    @Test("A session ended on the server is noticed by the periodic check, without any write")
    func revokedSessionIsNoticedByTheCheck() async throws {
        let bed = try DaemonTestBed(students: 20, daemonArguments: ["--refresh-interval", "1"])
        defer { bed.tearDown() }
        try bed.login()
        let (logout, change) = try await onOwnThread {
            let connection = try subscriber(bed)
            // End the daemon's session behind its back, with the XSRF token from its session file.
            let saved = try JSONText.parse(Data(contentsOf: URL(fileURLWithPath: bed.daemon.sessionFile)))
            let token = saved["session"]?["xsrfToken"]?.stringValue ?? ""
            let logout = try runCommand(
                "/usr/bin/curl", ["-sf", "-X", "DELETE", "-H", "X-XSRF-TOKEN: \(token)", bed.server.baseURL + "/session"])
            return (logout, try nextSessionChange(connection))
        }
        #expect(logout.status == 0, "\(logout.stderr)")
        #expect(change?["reason"] == .string("rejected"))
        try expectLoggedOutAndCleared(bed)
        // The log is read from the daemon's stderr by a thread of its own: a moment behind the event.
        #expect(eventually { bed.daemon.log.contains("the server no longer accepts the session") })
    }

    @Test("A second login ends the session it replaces on the server")
    func aSecondLoginEndsTheFirstSession() throws {
        let bed = try DaemonTestBed(students: 5)
        defer { bed.tearDown() }
        func savedSessionID() throws -> String {
            let saved = try JSONText.parse(Data(contentsOf: URL(fileURLWithPath: bed.daemon.sessionFile)))
            return saved["session"]?["sessionID"]?.stringValue ?? ""
        }
        /// The server's answer to `GET /session` with a session id: 200 while it is valid.
        func serverStatus(of id: String) throws -> String {
            try runCommand(
                "/usr/bin/curl", ["-s", "-o", "/dev/null", "-w", "%{http_code}", "-H", "X-OnTheMap-Session: \(id)", bed.server.baseURL + "/session"]
            ).stdout
        }
        try bed.login()
        let first = try savedSessionID()
        #expect(!first.isEmpty)
        #expect(try serverStatus(of: first) == "200")
        try bed.login()
        let second = try savedSessionID()
        #expect(second != first)
        #expect(try serverStatus(of: second) == "200")
        #expect(try serverStatus(of: first) == "401", "the replaced session still works on the server")
        #expect(eventually { bed.daemon.log.contains("ended a session upstream: a login replaced it") })
    }

    @Test("A 401 on a read logs out and answers -32007, once")
    func unauthorizedReadLogsOut() async throws {
        let upstream = RejectingUpstream()
        try await upstream.application().test(.live) { server in
            let daemon = try DaemonProcess(apiURL: "http://127.0.0.1:\(try #require(server.port))/v1")
            defer { daemon.tearDown() }
            let seen = try await onOwnThread { () throws -> [Result<WireJSON, RPCError>] in
                let client = try RPCConnection(path: daemon.socketPath, timeout: .seconds(30))
                let login = try client.call("login", params: params(("username", .string("ada@example.com")), ("password", .string("pw"))))
                return [login, try client.call("status"), try client.call("refresh"), try client.call("status"), try client.call("refresh")]
            }
            #expect((try? seen[0].get()) != nil, "login: \(seen[0])")
            #expect((try? seen[1].get())?["loggedIn"] == .bool(true))
            #expect(seen[2].error?.code == RPCError.sessionExpiredCode, "refresh: \(seen[2])")
            #expect((try? seen[3].get())?["loggedIn"] == .bool(false))
            // Logged out for real: the next call is -32001 (not logged in), not another -32007.
            #expect(seen[4].error?.code == RPCError.notLoggedInCode, "refresh again: \(seen[4])")
        }
    }
}

extension Result {
    fileprivate var error: Failure? {
        if case .failure(let error) = self { return error }
        return nil
    }
}

/// An upstream that logs in fine, lists students once (the refresh that follows a login), and then
/// refuses the session on every read, as a server does whose sessions were revoked between two calls.
/// The real server only refuses sessions on writes and `GET /session`.
private final class RejectingUpstream: Sendable {
    /// How many lists it has served.
    private let lists = Mutex(0)

    func application() -> some ApplicationProtocol {
        let router = Router()
        router.post("v1/session") { _, _ -> Response in
            Response(
                status: .ok,
                body: .init(byteBuffer: ByteBuffer(string: #")]}'"# + "\n" + #"{"account":{"registered":true,"key":"42"},"session":{"id":"s","expiration":"2099-01-01T00:00:00.000000Z"}}"#)))
        }
        router.get("v1/users/42") { _, _ -> Response in
            Response(status: .ok, body: .init(byteBuffer: ByteBuffer(string: #"{"first_name":"Ada","last_name":"Lovelace","key":"42"}"#)))
        }
        router.get("v1/StudentLocation") { [self] _, _ -> Response in
            let seen = self.lists.withLock { count in
                count += 1
                return count
            }
            guard seen > 1 else { return Response(status: .ok, body: .init(byteBuffer: ByteBuffer(string: #"{"results":[]}"#))) }
            return Response(status: .unauthorized, body: .init(byteBuffer: ByteBuffer(string: #"{"status":401,"error":"Session expired."}"#)))
        }
        return Application(router: router, configuration: .init(address: .hostname("127.0.0.1", port: 0)))
    }
}
