import Foundation
import NIOHTTP1
import OnTheMapTestSupport
import Testing

/// Whether python3 can import parse-client 0.1.2's `parse_client`.
private let parseClientInstalled: Bool =
    (try? runCommand("/usr/bin/env", ["python3", "-c", "import parse_client.user"]).status) == 0

/// A Parse client that never touches `/v1`: parse-client (PyPI) logs in through Parse's `/login`,
/// reads `/users/me`, writes with its token and logs out, under both Parse roots; then the error
/// shapes of unknown Parse paths and what `$regex` runs and refuses.
@Suite(
    "The Parse dialect's accounts and $regex", .ownThreads,
    .enabled(if: parseClientInstalled, "parse-client is not installed (python3 -m pip install parse-client==0.1.2)"))
struct ParseAccountsTests {
    @Test(arguments: ["/parse", "/1"])
    func parseClientLogsInThroughTheParsePath(prefix: String) async throws {
        let fixture = try ServerFixture()
        defer { fixture.tearDown() }
        let key = try fixture.addUser(email: "grace@example.com", password: "cobol-1959")
        let root = String(fixture.baseURL.dropLast("/v1".count))
        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("Parse/parse_client_login_test.py").path
        let result = try runCommand("/usr/bin/env", ["python3", script, root, prefix, "grace@example.com", "cobol-1959", key])
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        #expect(result.stdout.hasSuffix("ok\n"), "\(result.stdout)\(result.stderr)")
        // The password went in a query string (parse-client's GET /login): it is in no log line.
        #expect(!fixture.server.log.contains("cobol-1959"), "\(fixture.server.log)")
    }

    /// A session from Parse's `/login` is a session of the server: it writes on the Udacity path too,
    /// and Parse's logout ends it there.
    @Test func aParseSessionIsOneSessionOnBothDialects() async throws {
        let fixture = try ServerFixture()
        defer { fixture.tearDown() }
        let key = try fixture.addUser(email: "grace@example.com", password: "cobol-1959")
        let root = String(fixture.baseURL.dropLast("/v1".count))
        let login = try await ServerHTTP.send(
            .POST, root + "/parse/login", body: #"{"username":"grace@example.com","password":"cobol-1959"}"#,
            headers: ServerHTTP.parseHeaders())
        #expect(login.status == 200, "\(login.body)")
        let token = try #require(login.json["sessionToken"] as? String)
        let posted = try await ServerHTTP.send(
            .POST, fixture.baseURL + "/StudentLocation", body: ServerHTTP.pin(key), headers: [("X-OnTheMap-Session", token)])
        #expect(posted.status == 201, "\(posted.body)")
        let out = try await ServerHTTP.send(.POST, root + "/1/logout", headers: ServerHTTP.parseHeaders(session: token))
        #expect(out.status == 200 && out.body == "{}", "\(out.status) \(out.body)")
        let after = try await ServerHTTP.send(
            .POST, fixture.baseURL + "/StudentLocation", body: ServerHTTP.pin(key), headers: [("X-OnTheMap-Session", token)])
        #expect(after.status == 401, "\(after.body)")
        // Wrong application keys: refused before any credential is read.
        let strange = try await ServerHTTP.send(
            .POST, root + "/parse/login", body: #"{"username":"grace@example.com","password":"cobol-1959"}"#,
            headers: [("X-Parse-Application-Id", "wrong")])
        #expect(strange.status == 401 && strange.json["code"] as? Int == 119, "\(strange.body)")
    }

    /// The login limits count Parse's logins as they count the Udacity path's: the same account's
    /// failures add up across both.
    @Test func parseLoginsCountAgainstTheSameLimits() async throws {
        let fixture = try ServerFixture(arguments: ["--max-login-failures", "2"])
        defer { fixture.tearDown() }
        try fixture.addUser(email: "grace@example.com", password: "cobol-1959")
        let root = String(fixture.baseURL.dropLast("/v1".count))
        let wrong = #"{"username":"grace@example.com","password":"wrong"}"#
        let first = try await ServerHTTP.send(.POST, root + "/parse/login", body: wrong, headers: ServerHTTP.parseHeaders())
        #expect(first.status == 404 && first.json["code"] as? Int == 101, "\(first.body)")
        let second = try await ServerHTTP.send(
            .POST, fixture.baseURL + "/session", body: #"{"udacity":{"username":"grace@example.com","password":"wrong"}}"#)
        #expect(second.status == 403)
        let third = try await ServerHTTP.send(.POST, root + "/1/login", body: wrong, headers: ServerHTTP.parseHeaders())
        #expect(third.status == 429 && third.json["code"] as? Int == 155, "\(third.body)")
        #expect(third.headers["Retry-After"].first.flatMap { Int($0) } ?? 0 > 0)
        // The wait in words, as /v1/session says it: what is left of the minute's pause.
        let said = third.json["error"] as? String ?? ""
        #expect(said.wholeMatch(of: #/Too many login attempts: try again in (1 minute|[1-5]?\d seconds?)\./#) != nil, "\(third.body)")
    }
}
