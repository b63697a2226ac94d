import Foundation
import NIOHTTP1
import OnTheMapTestSupport
import Testing

/// docs/deploy/onthemap-server-backup.{service,timer}, the backup DEPLOY.md recommends: valid units
/// (`systemd-analyze verify`), and the service's command, run as written with the paths moved into a
/// temporary directory, makes a backup that `restore` takes.
@Suite("The backup timer of docs/deploy", .ownThreads)
struct BackupTimerTests {
    static let service = DeployConfigTests.repositoryFile("docs/deploy/onthemap-server-backup.service")
    static let timer = DeployConfigTests.repositoryFile("docs/deploy/onthemap-server-backup.timer")

    @Test func theUnitsVerify() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        for source in [Self.service, Self.timer] {
            let name = URL(fileURLWithPath: source).lastPathComponent
            try FileManager.default.copyItem(atPath: source, toPath: directory.file(name))
        }
        let result = try SystemdAnalyze.run(
            ["verify", "--man=no", directory.file("onthemap-server-backup.service"), directory.file("onthemap-server-backup.timer")],
            scratch: directory)
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        #expect(result.stderr.isEmpty, "\(result.stderr)")
        let timer = try String(contentsOfFile: Self.timer, encoding: .utf8)
        #expect(timer.contains("OnCalendar=") && timer.contains("Persistent=true"))
    }

    @Test func theServicesCommandMakesABackupThatRestores() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let database = try seededDatabase(in: directory, count: 12)
        try FileManager.default.createDirectory(atPath: directory.file("backups"), withIntermediateDirectories: true)
        let unit = try String(contentsOfFile: Self.service, encoding: .utf8)
        let execStart = try #require(unit.split(separator: "\n").first { $0.hasPrefix("ExecStart=") }).dropFirst("ExecStart=".count)
        // systemd's unit syntax: %% is a %; the command is /bin/sh -c '…'.
        let command = try #require(execStart.firstMatch(of: /^\/bin\/sh -c '(.*)'$/)?.1)
            .replacingOccurrences(of: "%%", with: "%")
            .replacingOccurrences(of: "/usr/bin/onthemap-server", with: BuiltProducts.path("onthemap-server"))
            .replacingOccurrences(of: "/var/lib/onthemap-server/onthemap.sqlite", with: database)
            .replacingOccurrences(of: "/var/lib/onthemap-server-backups", with: directory.file("backups"))
        let result = try runCommand("/bin/sh", ["-c", command])
        #expect(result.status == 0, "\(command): \(result.stderr)")
        // (SQLite's -wal and -shm beside it are another matter: issue 32's file points.)
        let backups = try FileManager.default.contentsOfDirectory(atPath: directory.file("backups")).filter { $0.hasSuffix(".sqlite") }
        #expect(backups.count == 1 && backups[0].wholeMatch(of: /onthemap-\d{8}T\d{6}Z\.sqlite/) != nil, "\(backups)")
        let restored = try runCommand(
            BuiltProducts.path("onthemap-server"),
            ["restore", "--from", directory.file("backups/\(backups[0])"), "--db", directory.file("restored.sqlite")])
        #expect(restored.status == 0, "\(restored.stderr)")
        #expect(restored.stdout.contains("12 pins") || restored.stdout.contains("pins: 12") || restored.stdout.contains("12"), "\(restored.stdout)")
    }
}
