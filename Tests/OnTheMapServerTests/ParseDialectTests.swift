import Foundation
import NIOHTTP1
import OnTheMapTestSupport
import Testing

/// Whether python3 can import ParsePy's `parse_rest`.
private let parsePyInstalled: Bool =
    (try? runCommand("/usr/bin/env", ["python3", "-c", "import parse_rest"]).status) == 0

/// The Parse-era dialect, through a real Parse REST client from PyPI (ParsePy) and raw requests.
@Suite(
    "The Parse-era dialect", .ownThreads,
    .enabled(if: parsePyInstalled, "ParsePy is not installed (python3 -m pip install parsepy)"))
struct ParseDialectTests {
    @Test func aParseClientAndRawRequestsAgainstTheServer() async throws {
        let fixture = try ServerFixture()
        defer { fixture.tearDown() }
        try fixture.seedDemo(count: 40)
        try fixture.addUser(email: "grace@example.com", password: "cobol-1959")
        let (key, session) = try await ServerHTTP.login(fixture.baseURL, email: "grace@example.com", password: "cobol-1959")
        let root = String(fixture.baseURL.dropLast("/v1".count))
        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Parse/parse_client_test.py").path
        let result = try runCommand("/usr/bin/env", ["python3", script, root, key, session])
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        #expect(result.stdout.hasSuffix("ok\n"), "\(result.stdout)\(result.stderr)")
    }

    @Test func openWritesLetStockParseAppsWriteWithoutASession() async throws {
        let fixture = try ServerFixture(arguments: ["--open-writes"])
        defer { fixture.tearDown() }
        let root = String(fixture.baseURL.dropLast("/v1".count))
        let headers = ServerHTTP.parseHeaders()
        let posted = try await ServerHTTP.send(.POST, root + "/1/classes/StudentLocation", body: ServerHTTP.pin("321"), headers: headers)
        #expect(posted.status == 201, "\(posted.body)")
        let objectId = try #require(posted.json["objectId"] as? String)
        let one = try await ServerHTTP.send(.GET, root + "/parse/classes/StudentLocation/\(objectId)", headers: headers)
        #expect(one.json["uniqueKey"] as? String == "321")
        // The same pin on the Udacity path: one storage, two dialects.
        #expect(try await ServerHTTP.pins(fixture.baseURL, of: "321").count == 1)
        // Own keys can be required instead of the public ones.
        fixture.stopServer()
        let strict = try ServerProcess.start(
            databasePath: fixture.databasePath, arguments: ["--parse-application-id", "mine", "--parse-rest-api-key", "secret"])
        defer { strict.stop() }
        let strictRoot = String(strict.baseURL.dropLast("/v1".count))
        #expect(try await ServerHTTP.send(.GET, strictRoot + "/1/classes/StudentLocation", headers: headers).status == 401)
        let own = try await ServerHTTP.send(
            .GET, strictRoot + "/1/classes/StudentLocation",
            headers: [("X-Parse-Application-Id", "mine"), ("X-Parse-REST-API-Key", "secret")])
        #expect(own.status == 200)
    }
}
