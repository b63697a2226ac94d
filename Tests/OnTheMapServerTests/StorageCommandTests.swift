import Foundation
import NIOHTTP1
import OnTheMapTestSupport
import Testing

/// `migrate`, `copy` and the settings file, on real databases.
@Suite("Database commands", .ownThreads)
struct StorageCommandTests {
    let server = BuiltProducts.path("onthemap-server")

    @Test(.enabled(if: PostgresTestServer.isAvailable, "PostgreSQL 15 is not installed"))
    func copyFromSQLiteToPostgresAndBackLosesNothing() async throws {
        let directory = try TemporaryDirectory(prefix: "onthemap-copy")
        defer { directory.remove() }
        let sqlite = directory.file("source.sqlite")
        #expect(try runCommand(server, ["seed", "--db", sqlite, "--demo", "--count", "150", "--bcrypt-cost", "4"]).status == 0)
        // A session and a moved pin too, made through a real server.
        let source = try ServerProcess.start(databasePath: sqlite)
        let (key, session) = try await ServerHTTP.login(source.baseURL, email: "demo@onthemap.example", password: "onthemap-demo")
        let posted = try await ServerHTTP.send(
            .POST, source.baseURL + "/StudentLocation", body: ServerHTTP.pin(key, mapString: "Zürich, Schweiz"),
            headers: [("X-OnTheMap-Session", session)])
        #expect(posted.status == 201)
        let sourceList = try await ServerHTTP.send(.GET, source.baseURL + "/StudentLocation?limit=1000&order=objectId")
        source.stop()

        let postgres = try await PostgresTestServer.newDatabase()
        let there = try runCommand(server, ["copy", "--from", sqlite, "--to", postgres])
        #expect(there.status == 0, "\(there.stderr)")
        let counts = try #require(there.stdout.firstMatch(of: /copied (1 accounts, 1 sessions, 151 pins) from .* \(checksum ([0-9a-f]+)\)/))
        let back = directory.file("back.sqlite")
        let returned = try runCommand(server, ["copy", "--from", postgres, "--to", back])
        #expect(returned.status == 0, "\(returned.stderr)")
        #expect(returned.stdout.contains("copied \(counts.1) from"))
        #expect(returned.stdout.contains("(checksum \(counts.2))"))

        // What clients see is byte for byte the same from all three databases.
        for database in [postgres, back] {
            let copy = try ServerProcess.start(databasePath: database)
            defer { copy.stop() }
            let list = try await ServerHTTP.send(.GET, copy.baseURL + "/StudentLocation?limit=1000&order=objectId")
            #expect(list.body == sourceList.body)
            // The session travelled too.
            let write = try await ServerHTTP.send(
                .POST, copy.baseURL + "/StudentLocation", body: ServerHTTP.pin(key), headers: [("X-OnTheMap-Session", session)])
            #expect(write.status == 201)
        }

        // A destination that holds data is refused, and keeps it.
        let again = try runCommand(server, ["copy", "--from", sqlite, "--to", back])
        #expect(again.status != 0)
        #expect(again.stderr.contains("Refusing to overwrite data"), "\(again.stderr)")
    }

    @Test(.enabled(if: PostgresTestServer.isAvailable, "PostgreSQL 15 is not installed"))
    func aDatabaseMigratedByANewerServerIsRefused() async throws {
        let url = try await PostgresTestServer.newDatabase()
        #expect(try runCommand(server, ["migrate", "--create", "--database", url]).status == 0)
        // As a newer server would leave it: a migration this one does not know.
        let cluster = try await onOwnThread { try PostgresTestServer.shared() }
        #expect(try cluster.psql(url, "INSERT INTO schemaMigration (version, appliedAt) VALUES (999, now())").status == 0)
        for arguments in [["migrate", "--database", url], ["serve", "--port", "0", "--database", url]] {
            // Under `timeout`: a server that did start would otherwise serve until killed.
            let result = try runCommand("/usr/bin/timeout", ["30", server] + arguments)
            #expect(result.status != 0)
            #expect(result.stderr.contains("schema migration 999, applied by a newer onthemap-server"), "\(result.stderr)")
        }
    }

    @Test func migrateCreatesTheSchema() throws {
        let directory = try TemporaryDirectory(prefix: "onthemap-migrate")
        defer { directory.remove() }
        let database = try TestDatabase.fresh(in: directory)
        // Without --create a database that is not there is an error, and nothing is made.
        let refused = try runCommand(server, ["migrate", "--database", database])
        #expect(refused.status == 1, "\(refused.stdout)\(refused.stderr)")
        #expect(refused.stderr.contains("--create"), "\(refused.stderr)")
        let result = try runCommand(server, ["migrate", "--create", "--database", database])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("created, schema up to date, 0 pins, pins per account: one"), "\(result.stdout)")
        let again = try runCommand(server, ["migrate", "--database", database])
        #expect(again.stdout.contains(": schema up to date, 0 pins"), "\(again.stdout)\(again.stderr)")
    }

    @Test func settingsFileAndEnvironmentFeedServe() async throws {
        let directory = try TemporaryDirectory(prefix: "onthemap-settings")
        defer { directory.remove() }
        let database = try TestDatabase.fresh(in: directory)
        let settings = directory.file("server.conf")
        try """
            # settings for a test
            database = \(database)
            create = true
            pins-per-account = many
            open-writes = true
            idle-timeout = 45
            """.write(toFile: settings, atomically: true, encoding: .utf8)
        let process = try RunningProcess(
            server, ["serve", "--config", settings, "--port", "0"], environment: [:])
        defer { process.stop() }
        #expect(process.waitForLine { $0.contains("listening on") })
        let urls = process.lines.compactMap { line in line.firstMatch(of: /listening on (\S+)/).map { String($0.1) } }
        let base = try #require(urls.first)
        // many pins per account and open writes, from the file:
        for _ in 0..<2 {
            #expect(try await ServerHTTP.send(.POST, String(base) + "/StudentLocation", body: ServerHTTP.pin("9")).status == 201)
        }
        #expect(try await ServerHTTP.pins(String(base), of: "9").count == 2)

        // ONTHEMAP_DATABASE_URL names the database for every command.
        let migrated = try runCommand(server, ["migrate"], environment: ["ONTHEMAP_DATABASE_URL": database])
        #expect(migrated.stdout.contains("2 pins, pins per account: many"), "\(migrated.stdout)\(migrated.stderr)")

        try "no equals sign here\n".write(toFile: settings, atomically: true, encoding: .utf8)
        let broken = try runCommand(server, ["serve", "--config", settings, "--port", "0"])
        #expect(broken.status != 0)
        #expect(broken.stderr.contains("line 1: expected `key = value`"))
    }
}
