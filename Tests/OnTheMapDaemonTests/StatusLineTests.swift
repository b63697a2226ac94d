import Foundation
import OnTheMapModels
import OnTheMapTestSupport
import Testing

@testable import OnTheMapDaemon

/// systemd's `STATUS=` line says how long ago the list was refreshed, and stays true as time passes.
@Suite("The status line systemd shows", .ownThreads)
struct StatusLineTests {
    @Test(arguments: [
        (0.0, 60.0), (59.9, 60.0), (60.0, 120.0), (61.5, 120.0), (3599.0, 3600.0), (3600.0, 7200.0),
        (86_399.0, 86_400.0), (90_000.0, 172_800.0), (-5.0, 60.0),
    ])
    func nextChangeIsWhereTheTextChanges(age: TimeInterval, next: TimeInterval) {
        let refreshed = Date(timeIntervalSince1970: 1_700_000_000)
        let now = refreshed.addingTimeInterval(age)
        let change = RelativeTime.nextChange(of: refreshed, now: now)
        #expect(change.timeIntervalSince(refreshed) == next)
        #expect(RelativeTime.describe(refreshed, now: change) != RelativeTime.describe(refreshed, now: now))
        #expect(RelativeTime.describe(refreshed, now: change.addingTimeInterval(-0.001)) == RelativeTime.describe(refreshed, now: now))
    }

    /// A list refreshed 45 s before the daemon starts: READY says "just now", and the line moves
    /// on to "1 min ago" by itself, with no refresh in between (the interval is an hour).
    @Test func statusMovesOnWithTime() throws {
        let bed = try DaemonTestBed(daemonArguments: ["--refresh-interval", "3600"])
        defer { bed.tearDown() }
        try bed.login()
        #expect(eventually { FileManager.default.fileExists(atPath: bed.daemon.cacheFile) })
        #expect(bed.daemon.stop() == 0)
        let file = try #require(StudentsFile(fileContents: Array(try Data(contentsOf: URL(fileURLWithPath: bed.daemon.cacheFile)))))
        var older = file
        older.refreshedAt = Date().addingTimeInterval(-45)
        try Data(older.bytes()).write(to: URL(fileURLWithPath: bed.daemon.cacheFile))

        let notify = try NotifySocketListener(path: bed.daemon.home.file("notify.sock"))
        defer { notify.close() }
        bed.daemon.extraEnvironment["NOTIFY_SOCKET"] = notify.path
        try bed.daemon.start()
        #expect(notify.waitFor("READY=1"))
        let ready = try #require(notify.messages.first { $0.contains("READY=1") })
        #expect(ready.contains("refreshed just now"), "\(ready)")
        #expect(notify.waitFor("refreshed 1 min ago", timeout: 60), "\(notify.messages)")
        let statusLines = notify.messages.filter { $0.hasPrefix("STATUS=") }
        #expect(statusLines.count == 1, "\(notify.messages)")
        #expect(try bed.result("status")["students"]?["refreshedAt"] == .string(WireTimestamp.milliseconds(older.refreshedAt)))
    }
}
