import Foundation
import NIOHTTP1
import OnTheMapTestSupport
import Testing

/// The login limit counts each attempt before the password is checked, so a burst cannot pass it.
@Suite("Login limit under concurrency", .ownThreads)
struct LoginLimitConcurrencyTests {
    @Test func twentyFiveConcurrentWrongPasswordsGetFiveRefusalsAndTwentyTooMany() async throws {
        let fixture = try ServerFixture()
        defer { fixture.tearDown() }
        try fixture.addUser(email: "ada@example.com", password: "analytical")
        let url = fixture.baseURL
        let statuses = try await withThrowingTaskGroup(of: Int.self) { group in
            for _ in 0..<25 {
                group.addTask {
                    try await ServerHTTP.send(
                        .POST, url + "/session", body: #"{"udacity":{"username":"ada@example.com","password":"wrong"}}"#
                    ).status
                }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(statuses.filter { $0 == 403 }.count == 5, "\(statuses.sorted())")
        #expect(statuses.filter { $0 == 429 }.count == 20, "\(statuses.sorted())")
        // The right password is refused too until the minute's pause ends: the account is locked,
        // not guessed; the wait is said once, in words ("Retry-After" has the seconds).
        let right = try await ServerHTTP.send(
            .POST, url + "/session", body: #"{"udacity":{"username":"ada@example.com","password":"analytical"}}"#)
        #expect(right.status == 429)
        #expect(right.headers["Retry-After"].first.flatMap(Int.init).map { $0 > 0 && $0 <= 60 } == true)
        let said = right.json["error"] as? String ?? ""
        #expect(said.wholeMatch(of: #/Too many login attempts: try again in (1 minute|[1-5]?\d seconds?)\./#) != nil, "\(right.body)")
    }
}
