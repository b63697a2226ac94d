import Foundation
import NIOHTTP1
import OnTheMapServer
import OnTheMapTestSupport
import Testing

/// `serve` as systemd and an operator meet it: READY/STOPPING, SIGTERM with a request in flight, a
/// busy port.
@Suite("Operations: sd_notify, graceful shutdown, busy port", .ownThreads)
struct ShutdownAndNotifyTests {
    @Test func sigtermDrainsARequestInFlightAndClosesTheDatabase() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let database = try seededDatabase(in: directory)
        let notify = try NotifySocketListener(path: directory.file("notify.sock"))
        defer { notify.close() }
        let server = try ServerProcess.start(databasePath: database, environment: ["NOTIFY_SOCKET": notify.path])
        defer { server.stop() }
        #expect(notify.waitFor("READY=1"))
        #expect(notify.messages.contains { $0.contains("READY=1") && $0.contains("STATUS=serving \(server.baseURL)") })

        // A write, so the WAL holds something a clean close must checkpoint.
        #expect(try await ServerHTTP.send(.POST, server.baseURL + "/session", body: loginBody()).status == 200)
        #expect((try FileManager.default.attributesOfItem(atPath: database + "-wal")[.size] as? Int ?? 0) > 0)

        // A login whose body is still on its way when SIGTERM arrives.
        let body = loginBody()
        let split = body.index(body.startIndex, offsetBy: 20)
        let connection = try RawSocket(loopbackPort: server.port)
        try connection.sendAll(
            "POST /v1/session HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                + "Content-Length: \(body.utf8.count)\r\nConnection: close\r\n\r\n" + body[..<split])
        // The request is in its handler (reading the body) before the server is told to stop.
        var inFlight = false
        for _ in 0..<300 where !inFlight {
            let metrics = try await ServerHTTP.send(.GET, "http://127.0.0.1:\(server.port)/metrics").body
            inFlight = sample(metrics, "onthemap_http_active_requests", ["method": "POST"]) == 1
            if !inFlight { try await Task.sleep(for: .milliseconds(50)) }
        }
        try #require(inFlight, "the trickled request never reached its handler")
        server.signal(SIGTERM)
        #expect(notify.waitFor("STOPPING=1"))
        // It stops accepting new connections…
        #expect(eventually { (try? RawSocket(loopbackPort: server.port)) == nil })
        #expect(server.waitForExit(timeout: 1) == nil, "exited with a request in flight")
        // …and still answers the one in flight.
        try connection.sendAll(String(body[split...]))
        let reply = String(decoding: connection.receiveAll(timeout: .seconds(30)), as: UTF8.self)
        #expect(reply.hasPrefix("HTTP/1.1 200 OK"), "\(reply)")
        #expect(reply.contains(#""session":{"id":"#))

        #expect(server.waitForExit() == 0, "\(server.log)")
        // A clean close: the WAL is empty, everything is in the main file. A copy of that file alone
        // (no -wal beside it) holds both sessions.
        let walSize = (try? FileManager.default.attributesOfItem(atPath: database + "-wal")[.size] as? Int) ?? 0
        #expect(walSize == 0)
        let copy = directory.file("copy/db.sqlite")
        try FileManager.default.createDirectory(atPath: directory.file("copy"), withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: database, toPath: copy)
        let storage = try SQLiteStorage(database: AppDatabase.open(path: copy))
        #expect(try await storage.allSessions(accountKey: nil).filter { $0.expiresAt > Date() }.count == 2)
        let readyIndex = try #require(notify.messages.firstIndex { $0.contains("READY=1") })
        let stoppingIndex = try #require(notify.messages.firstIndex { $0.contains("STOPPING=1") })
        #expect(readyIndex < stoppingIndex)
    }

    @Test func aBusyPortIsNamedAndFailsTheCommand() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let first = try ServerProcess.start(databasePath: directory.file("a.sqlite"))
        defer { first.stop() }
        let second = try runCommand(
            BuiltProducts.path("onthemap-server"), ["serve", "--create", "--db", directory.file("b.sqlite"), "--port", String(first.port)])
        #expect(second.status == 1)
        #expect(second.stderr.contains("port \(first.port) is already in use (Address already in use on 127.0.0.1)"), "\(second.stderr)")
        #expect(!second.stderr.contains("errno"), "\(second.stderr)")
        // The first server is unharmed.
        _ = try RawSocket(loopbackPort: first.port)
    }
}
