import AsyncHTTPClient
import Foundation
import NIOCore
import OnTheMapModels
import OnTheMapServer
import OnTheMapTestSupport
import Testing

@Suite("The onthemap-server command line", .ownThreads)
struct ServerCommandTests {
    let server = BuiltProducts.path("onthemap-server")

    @Test func userAddReadsThePasswordFromStdinOnly() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let db = directory.file("db.sqlite")
        #expect(try runCommand(server, ["migrate", "--create", "--db", db]).status == 0)
        let base = ["user", "add", "--db", db, "--email", "ada@example.com", "--first", "Ada", "--last", "Lovelace"]

        let withoutFlag = try runCommand(server, base, stdin: "secret-words\n")
        #expect(withoutFlag.status == 64)
        #expect(withoutFlag.stderr.contains("--password-stdin"))

        let inArgv = try runCommand(server, base + ["--password", "secret-words"])
        #expect(inArgv.status == 64)

        let empty = try runCommand(server, base + ["--password-stdin", "--bcrypt-cost", "4"], stdin: "")
        #expect(empty.status == 1)
        #expect(empty.stderr.contains("No password"))

        let added = try runCommand(server, base + ["--password-stdin", "--bcrypt-cost", "4"], stdin: "secret-words\n")
        #expect(added.status == 0, "\(added.stderr)")
        #expect(added.stdout.firstMatch(of: /added ada@example.com with account key \d{10}/) != nil)
        #expect(!added.stdout.contains("secret") && !added.stderr.contains("secret"))

        let duplicate = try runCommand(server, base + ["--password-stdin", "--bcrypt-cost", "4"], stdin: "other-words\n")
        #expect(duplicate.status == 1)
        #expect(duplicate.stderr.contains("already exists"))
    }

    @Test func seedDemoIsPlausibleAndRunsOnce() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let db = directory.file("nested/dir/db.sqlite")
        let first = try runCommand(server, ["seed", "--db", db, "--demo", "--bcrypt-cost", "4"])
        #expect(first.status == 0, "\(first.stderr)")
        #expect(first.stdout.contains("added 240 demo students"))
        #expect(first.stdout.contains("\(DemoSeed.email) / \(DemoSeed.password)"))
        let again = try runCommand(server, ["seed", "--db", db, "--demo", "--bcrypt-cost", "4"])
        #expect(again.stdout.contains("added 0 demo students"))
        #expect(again.stdout.contains("already exists"))

        // Owner-only file and directory.
        #expect(try mode(db) == 0o600)
        #expect(try mode(directory.file("nested/dir")) == 0o700)

        let serverProcess = try ServerProcess.start(databasePath: db)
        defer { serverProcess.stop() }
        let response = try await HTTPClient.shared.execute(
            HTTPClientRequest(url: serverProcess.baseURL + "/StudentLocation?limit=1000"), timeout: .seconds(10))
        let body = try await response.body.collect(upTo: 10 * 1024 * 1024)
        let list = try WireCoding.decoder().decode(StudentLocationList.self, from: Data(body.readableBytesView))
        #expect(list.results.count == 240)
        #expect(list.skipped.isEmpty)
        #expect(Set(list.results.map(\.mapString)).count >= 80)
        #expect(Set(list.results.map(\.fullName)).count >= 200)
        #expect(list.results.allSatisfy { $0.mediaURL.hasPrefix("https://") })
        let updates = list.results.compactMap(\.updatedAt).map(\.timeIntervalSinceNow)
        #expect(updates.min()! < -40 * 24 * 3600)
        #expect(updates.max()! > -2 * 24 * 3600)
        #expect(updates.allSatisfy { $0 <= 0 })
    }

    @Test func defaultDatabaseFollowsXDGDataHome() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let result = try runCommand(
            server, ["seed", "--demo", "--count", "3", "--bcrypt-cost", "4"], environment: ["XDG_DATA_HOME": directory.path])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(FileManager.default.fileExists(atPath: directory.file("onthemap-server/onthemap.sqlite")))
    }

    @Test func serveExitsCleanlyOnSIGTERM() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let process = try ServerProcess.start(databasePath: directory.file("db.sqlite"))
        #expect(process.stop() == 0)
    }

    @Test func servingAnUnwritableDatabaseFailsClearly() throws {
        let result = try runCommand(server, ["serve", "--create", "--db", "/proc/onthemap/db.sqlite", "--port", "0"])
        #expect(result.status != 0)
        #expect(result.stderr.contains("Cannot open the database at /proc/onthemap/db.sqlite"))
    }

    private func mode(_ path: String) throws -> Int {
        let attributes = try FileManager.default.attributesOfItem(atPath: path)
        return (attributes[.posixPermissions] as? Int ?? 0) & 0o777
    }
}
