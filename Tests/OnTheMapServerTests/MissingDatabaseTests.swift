import Foundation
import OnTheMapTestSupport
import Testing

/// A mistyped database is an error that names it, never a new, empty database: only the commands that
/// create one by intent do (`seed`, `migrate --create`, `serve --create`, the destinations of
/// `backup`, `restore` and `copy`).
@Suite("A database that is not there", .ownThreads)
struct MissingDatabaseTests {
    let server = BuiltProducts.path("onthemap-server")

    /// Every command that reads or changes a database, as an operator would mistype it.
    static let commands: [[String]] = [
        ["user", "list"], ["user", "show", "ada@example.com"], ["user", "remove", "ada@example.com", "--yes"],
        ["user", "disable", "ada@example.com", "--yes"], ["user", "enable", "ada@example.com"],
        ["pin", "list"], ["pin", "remove", "x", "--yes"], ["session", "list"], ["session", "revoke", "--user", "ada@example.com", "--yes"],
        ["migrate"], ["serve", "--port", "0"],
    ]

    @Test func everyCommandRefusesAMissingFileAndCreatesNothing() throws {
        let directory = try TemporaryDirectory(prefix: "onthemap-typo")
        defer { directory.remove() }
        let typo = directory.file("nope/typo.sqlite")
        for command in Self.commands + [["backup", "--to", directory.file("backup.sqlite")]] {
            // Under `timeout`: a serve that did start would serve until killed.
            let result = try runCommand("/usr/bin/timeout", ["20", server] + command + ["--db", typo])
            #expect(result.status == 1, "\(command): \(result.status) \(result.stderr)")
            #expect(result.stderr == "onthemap-server: No database at \(typo): check the path, or create one there with `onthemap-server migrate --create`.\n",
                    "\(command): \(result.stderr)")
            #expect(result.stdout.isEmpty, "\(command): \(result.stdout)")
        }
        for (command, stdin) in [(["user", "add", "--email", "a@b.c", "--first", "A", "--last", "B", "--password-stdin"], "long-enough\n"),
                                 (["user", "passwd", "a@b.c", "--password-stdin"], "long-enough\n")] {
            let result = try runCommand(server, command + ["--db", typo, "--bcrypt-cost", "4"], stdin: stdin)
            #expect(result.status == 1 && result.stderr.contains("No database at \(typo)"), "\(command): \(result.stderr)")
        }
        let copy = try runCommand(server, ["copy", "--from", typo, "--to", directory.file("copy.sqlite")])
        #expect(copy.status == 1 && copy.stderr.contains("No database at \(typo)"), "\(copy.stderr)")
        // Nothing was made: not the folder, not the backup or the copy.
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path).isEmpty)
    }

    @Test func withoutDbNothingAppearsInTheHomeFolder() throws {
        let home = try TemporaryDirectory(prefix: "onthemap-home")
        defer { home.remove() }
        let environment = ["HOME": home.path, "XDG_DATA_HOME": "", "ONTHEMAP_DATABASE_URL": "", "ONTHEMAP_SERVER_CONFIG": ""]
        let result = try runCommand(server, ["user", "list"], environment: environment)
        #expect(result.status == 1)
        #expect(result.stderr.contains("No database at \(home.path)/.local/share/onthemap-server/onthemap.sqlite"), "\(result.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: home.path).isEmpty)
    }

    @Test func anEmptyFileIsNotADatabaseUnlessCreationIsAsked() throws {
        let directory = try TemporaryDirectory(prefix: "onthemap-empty")
        defer { directory.remove() }
        let empty = directory.file("empty.sqlite")
        #expect(FileManager.default.createFile(atPath: empty, contents: Data()))
        for command in [["user", "list"], ["migrate"], ["serve", "--port", "0"]] {
            let result = try runCommand("/usr/bin/timeout", ["20", server] + command + ["--db", empty])
            #expect(result.status == 1, "\(command): \(result.stderr)")
            #expect(result.stderr.contains("\(empty) is an empty file (0 bytes), not a database"), "\(command): \(result.stderr)")
        }
        #expect(try FileManager.default.attributesOfItem(atPath: empty)[.size] as? Int == 0)
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == ["empty.sqlite"])
        // Asked for, the same file becomes a database.
        let created = try runCommand(server, ["migrate", "--create", "--db", empty])
        #expect(created.status == 0, "\(created.stderr)")
        #expect(created.stdout.contains("created, schema up to date"), "\(created.stdout)")
    }

    @Test func aFileThatIsNotADatabaseIsRefusedAndKept() throws {
        let directory = try TemporaryDirectory(prefix: "onthemap-text")
        defer { directory.remove() }
        let notes = directory.file("notes.txt")
        let text = "my notes, not a database\n"
        try text.write(toFile: notes, atomically: true, encoding: .utf8)
        for command in [["user", "list"], ["migrate", "--create"], ["serve", "--create", "--port", "0"], ["restore", "--from", notes, "--db", directory.file("new.sqlite")]] {
            let arguments = command.contains("restore") ? command : command + ["--db", notes]
            let result = try runCommand("/usr/bin/timeout", ["20", server] + arguments)
            #expect(result.status == 1, "\(command): \(result.stderr)")
            #expect(result.stderr.contains("\(notes) is not a SQLite database"), "\(command): \(result.stderr)")
        }
        #expect(try String(contentsOfFile: notes, encoding: .utf8) == text)
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == ["notes.txt"])
    }

    @Test(.enabled(if: PostgresTestServer.isAvailable, "PostgreSQL 15 is not installed"))
    func aPostgresDatabaseWithoutTheTablesIsRefusedUnlessCreationIsAsked() async throws {
        let url = try await PostgresTestServer.newDatabase()
        let refused = try runCommand(server, ["user", "list", "--database", url])
        #expect(refused.status == 1)
        #expect(refused.stderr.contains("holds no OnTheMap tables"), "\(refused.stderr)")
        let cluster = try await onOwnThread { try PostgresTestServer.shared() }
        let tables = try cluster.psql(url, "SELECT count(*) FROM pg_tables WHERE schemaname = 'public'")
        #expect(tables.stdout.trimmingCharacters(in: .whitespacesAndNewlines).hasPrefix("0"), "\(tables.stdout)")
        #expect(try runCommand(server, ["migrate", "--create", "--database", url]).status == 0)
        #expect(try runCommand(server, ["user", "list", "--database", url]).status == 0)
    }
}
