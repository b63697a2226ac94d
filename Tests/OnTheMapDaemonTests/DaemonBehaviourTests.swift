import Foundation
import OnTheMapClient
import OnTheMapModels
import OnTheMapRPC
import OnTheMapTestSupport
import Testing

/// What the daemon's one state promises a user, end to end against the real server.
@Suite("The daemon's state, as a user meets it", .ownThreads)
struct DaemonBehaviourTests {
    @Test("A session revoked on the server ends at the next refresh a client asks for, and subscribers hear why")
    func revokedSessionEndsAtAManualRefresh() throws {
        // An hour between the daemon's own refreshes: only the client's refresh can notice.
        let bed = try DaemonTestBed(students: 20, daemonArguments: ["--refresh-interval", "3600"])
        defer { bed.tearDown() }
        try bed.login()
        let subscriber = try bed.connect(timeout: .seconds(30))
        _ = try subscriber.call("subscribe", params: params(("events", .array([.string("session")])))).get()
        let revoke = try runCommand(
            BuiltProducts.path("onthemap-server"),
            ["session", "revoke", "--database", bed.server.databasePath, "--user", bed.demoKey, "--yes"])
        #expect(revoke.status == 0, "\(revoke.stderr)")
        #expect(try bed.error("refresh").code == RPCError.sessionExpiredCode)
        let change = try #require(try subscriber.read(WireJSON.self))
        #expect(change["method"] == .string("sessionChanged"))
        #expect(change["params"]?["reason"] == .string("rejected"))
        #expect(try bed.result("status")["loggedIn"] == .bool(false))
        #expect(!FileManager.default.fileExists(atPath: bed.daemon.sessionFile))
    }

    @Test("A state folder others may enter is made private at start, and the log says so")
    func anOpenStateFolderIsTightened() throws {
        let bed = try DaemonTestBed(students: 5)
        defer { bed.tearDown() }
        try bed.login()
        let folder = (bed.daemon.sessionFile as NSString).deletingLastPathComponent
        #expect(bed.daemon.stop() == 0)
        #expect(chmod(folder, 0o777) == 0)
        try bed.daemon.start()
        let mode = try #require(try FileManager.default.attributesOfItem(atPath: folder)[.posixPermissions] as? Int)
        #expect(mode & 0o777 == 0o700, "mode \(String(mode, radix: 8))")
        #expect(eventually { bed.daemon.log.contains("made it private (700)") }, "\(bed.daemon.log)")
        // The saved session survived the restart.
        #expect(try bed.result("status")["loggedIn"] == .bool(true))
    }

    @Test("myPin answers the pin last seen, marked cached, while the server is down")
    func myPinWhileTheServerIsDown() throws {
        let bed = try DaemonTestBed(students: 5)
        defer { bed.tearDown() }
        try bed.login()
        let posted = try bed.result(
            "postPin", params(("mapString", .string("Lima, Peru")), ("mediaURL", .string("https://example.com/ada"))))
        #expect(posted["created"] == .bool(true))
        bed.server.stopServer()
        let mine = try MyPinResult(json: try bed.result("myPin"))
        #expect(mine.cached)
        #expect(mine.pin?.student.objectId == posted["pin"]?["objectId"]?.stringValue)
        #expect(mine.pin?.student.mapString == "Lima, Peru")
    }

    @Test("A place posted without coordinates is stored as the match's name, not as typed")
    func postedPlaceIsTheMatchsName() throws {
        let bed = try DaemonTestBed(students: 5)
        defer { bed.tearDown() }
        try bed.login()
        let posted = try PostPinResult(json: try bed.result(
            "postPin", params(("mapString", .string("  springfield illinois ")), ("mediaURL", .string("https://example.com/me")))))
        #expect(posted.pin.student.mapString == "Springfield, Illinois, United States")
        #expect(try bed.result("status")["myPin"]?["mapString"] == .string("Springfield, Illinois, United States"))
    }
}
