import Foundation
import OnTheMapTestSupport
import Testing

/// `restore` only reads its backup: the file keeps its bytes (md5) and gets no `-wal` or `-shm`
/// beside it, and a backup that cannot be written to restores all the same.
@Suite("Restore leaves its source alone", .ownThreads)
struct RestoreSourceTests {
    let server = BuiltProducts.path("onthemap-server")

    /// A backup of a seeded database, alone in a folder of its own; returns its path.
    private func backup(in directory: TemporaryDirectory) throws -> String {
        let source = directory.file("live.sqlite")
        #expect(try runCommand(server, ["seed", "--db", source, "--demo", "--count", "30", "--bcrypt-cost", "4"]).status == 0)
        try FileManager.default.createDirectory(atPath: directory.file("backups"), withIntermediateDirectories: false)
        let file = directory.file("backups/monday.sqlite")
        let made = try runCommand(server, ["backup", "--db", source, "--to", file])
        #expect(made.status == 0, "\(made.stderr)")
        return file
    }

    private func md5(_ path: String) throws -> String {
        String(try runCommand("/usr/bin/md5sum", [path]).stdout.prefix(32))
    }

    @Test func theBackupKeepsItsBytesAndGetsNothingBesideIt() throws {
        let directory = try TemporaryDirectory(prefix: "onthemap-restore")
        defer { directory.remove() }
        let file = try backup(in: directory)
        // A backup is one file: the clean close removed its -wal and -shm.
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.file("backups")) == ["monday.sqlite"])
        let before = try md5(file)
        let restored = try runCommand(server, ["restore", "--from", file, "--db", directory.file("restored.sqlite")])
        #expect(restored.status == 0, "\(restored.stderr)")
        #expect(restored.stdout.contains("restored 1 accounts, 0 sessions, 30 pins"), "\(restored.stdout)")
        #expect(try md5(file) == before)
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.file("backups")) == ["monday.sqlite"])
    }

    @Test func aReadOnlyBackupRestores() throws {
        let directory = try TemporaryDirectory(prefix: "onthemap-restore-ro")
        defer { directory.remove() }
        let file = try backup(in: directory)
        let before = try md5(file)
        // Read-only for whoever restores: the file 0444 in a folder it cannot write. Root writes
        // regardless of modes, so as root the restore runs as nobody.
        let writable = directory.file("writable")
        try FileManager.default.createDirectory(atPath: writable, withIntermediateDirectories: false)
        try FileManager.default.setAttributes([.posixPermissions: 0o777], ofItemAtPath: writable)
        try FileManager.default.setAttributes([.posixPermissions: 0o444], ofItemAtPath: file)
        try FileManager.default.setAttributes([.posixPermissions: 0o555], ofItemAtPath: directory.file("backups"))
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: directory.path)
        defer { try? FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: directory.file("backups")) }
        let restore = [server, "restore", "--from", file, "--db", writable + "/restored.sqlite"]
        let result = getuid() == 0
            ? try runCommand("/usr/bin/setpriv", ["--reuid=65534", "--regid=65534", "--clear-groups", "--"] + restore)
            : try runCommand(restore[0], Array(restore.dropFirst()))
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("30 pins"), "\(result.stdout)")
        #expect(try md5(file) == before)
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.file("backups")) == ["monday.sqlite"])
    }

    @Test func aMissingOrEmptyBackupIsNamed() throws {
        let directory = try TemporaryDirectory(prefix: "onthemap-restore-bad")
        defer { directory.remove() }
        let target = directory.file("restored.sqlite")
        let missing = try runCommand(server, ["restore", "--from", directory.file("nope.sqlite"), "--db", target])
        #expect(missing.status == 1)
        #expect(missing.stderr == "onthemap-server: No backup file at \(directory.file("nope.sqlite")).\n", "\(missing.stderr)")
        let empty = directory.file("empty.sqlite")
        #expect(FileManager.default.createFile(atPath: empty, contents: Data()))
        let refused = try runCommand(server, ["restore", "--from", empty, "--db", target])
        #expect(refused.status == 1)
        #expect(refused.stderr.contains("\(empty) is an empty file (0 bytes), not a backup."), "\(refused.stderr)")
        #expect(!FileManager.default.fileExists(atPath: target))
    }
}
