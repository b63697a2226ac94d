import Foundation
import NIOHTTP1
import OnTheMapTestSupport
import Testing

/// `serve`'s web page options on the command line and in the settings file: bad values are usage
/// errors that say which option, and `no-web = true` leaves the API alone.
@Suite("The web page's options", .ownThreads)
struct WebOptionsTests {
    let server = BuiltProducts.path("onthemap-server")

    @Test(arguments: [
        (["--web-pins", "0"], "--web-pins must be from 1 to 10000."),
        (["--web-pins", "10001"], "--web-pins must be from 1 to 10000."),
        (["--web-poll-seconds", "0"], "--web-poll-seconds must be from 1 to 3600 seconds."),
        (["--web-pins", "-5"], "--web-pins must be from 1 to 10000."),
        (["--web-poll-seconds", "-1"], "--web-poll-seconds must be from 1 to 3600 seconds."),
        (["--signup-url", "javascript:alert(1)"], "--signup-url must be an http:// or https:// address with a host"),
    ])
    func badValuesAreUsageErrors(arguments: [String], message: String) throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let result = try runCommand(server, ["serve", "--db", directory.file("db.sqlite"), "--port", "0"] + arguments)
        #expect(result.status == 64, "\(result.stderr)")
        #expect(result.stderr.contains(message), "\(result.stderr)")
    }

    @Test func noWebInTheSettingsFileServesTheAPIOnly() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        try "no-web = true\n".write(toFile: directory.file("server.conf"), atomically: true, encoding: .utf8)
        let database = try TestDatabase.fresh(in: directory)
        let process = try ServerProcess.start(databasePath: database, arguments: ["--config", directory.file("server.conf")])
        defer { process.stop() }
        let root = String(process.baseURL.dropLast("v1".count))
        #expect(try await ServerHTTP.send(.GET, root).status == 404)
        #expect(try await ServerHTTP.send(.GET, root + "index.html").status == 404)
        #expect(try await ServerHTTP.send(.GET, root + "assets/0000000000000000/app.css").status == 404)
        #expect(try await ServerHTTP.send(.GET, process.baseURL + "/StudentLocation").status == 200)
    }
}
