import Foundation
import NIOHTTP1
import OnTheMapTestSupport
import Testing

/// One pin per account, enforced by the database (a unique index and one upsert statement).
@Suite("One pin per account", .ownThreads)
struct OnePinPerAccountTests {
    @Test func twentyConcurrentPostsWithOneSessionLeaveOnePin() async throws {
        let fixture = try ServerFixture()
        defer { fixture.tearDown() }
        try fixture.addUser(email: "grace@example.com", password: "cobol-1959")
        let (key, session) = try await ServerHTTP.login(fixture.baseURL, email: "grace@example.com", password: "cobol-1959")
        let url = fixture.baseURL
        let replies = try await withThrowingTaskGroup(of: ServerHTTP.Reply.self) { group in
            for index in 0..<20 {
                group.addTask {
                    try await ServerHTTP.send(
                        .POST, url + "/StudentLocation", body: ServerHTTP.pin(key, mapString: "Place \(index)"),
                        headers: [("X-OnTheMap-Session", session)])
                }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(replies.allSatisfy { $0.status == 201 }, "\(replies.map(\.body))")
        let ids = Set(replies.compactMap { $0.json["objectId"] as? String })
        #expect(ids.count == 1, "every POST answers with the one pin's objectId: \(ids)")
        let pins = try await ServerHTTP.pins(url, of: key)
        #expect(pins.count == 1)
        #expect(pins.first?["objectId"] as? String == ids.first)
    }

    @Test func aSecondPostMovesThePinAndKeepsItsID() async throws {
        let fixture = try ServerFixture(arguments: ["--open-writes"])
        defer { fixture.tearDown() }
        let first = try await ServerHTTP.send(.POST, fixture.baseURL + "/StudentLocation", body: ServerHTTP.pin("77"))
        let second = try await ServerHTTP.send(
            .POST, fixture.baseURL + "/StudentLocation", body: ServerHTTP.pin("77", mapString: "Lyon, France", latitude: 45.76))
        #expect(first.status == 201 && second.status == 201)
        #expect(first.json["objectId"] as? String == second.json["objectId"] as? String)
        #expect(first.json["createdAt"] as? String == second.json["createdAt"] as? String)
        let pins = try await ServerHTTP.pins(fixture.baseURL, of: "77")
        #expect(pins.count == 1)
        #expect(pins.first?["mapString"] as? String == "Lyon, France")
    }

    @Test func manyPinsPerAccountRestoresTheUpstreamBehaviourAndOneMergesThemBack() async throws {
        let fixture = try ServerFixture(arguments: ["--open-writes", "--pins-per-account", "many"])
        defer { fixture.tearDown() }
        for index in 0..<3 {
            let reply = try await ServerHTTP.send(
                .POST, fixture.baseURL + "/StudentLocation", body: ServerHTTP.pin("88", mapString: "Place \(index)"))
            #expect(reply.status == 201)
        }
        #expect(try await ServerHTTP.pins(fixture.baseURL, of: "88").count == 3)
        fixture.stopServer()

        // Back to the default: the duplicates are merged into the newest pin, and the log says so.
        let server = try ServerProcess.start(
            databasePath: fixture.databasePath, arguments: ["--open-writes", "--log-level", "notice"])
        defer { server.stop() }
        let pins = try await ServerHTTP.pins(server.baseURL, of: "88")
        #expect(pins.count == 1)
        #expect(pins.first?["mapString"] as? String == "Place 2")
        #expect(server.log.contains("merged 2 duplicate pins"), "\(server.log)")
    }

    @Test func movingAPinOntoAnAccountThatHasOneIsAConflict() async throws {
        let fixture = try ServerFixture(arguments: ["--open-writes"])
        defer { fixture.tearDown() }
        _ = try await ServerHTTP.send(.POST, fixture.baseURL + "/StudentLocation", body: ServerHTTP.pin("1"))
        let other = try await ServerHTTP.send(.POST, fixture.baseURL + "/StudentLocation", body: ServerHTTP.pin("2"))
        let objectId = try #require(other.json["objectId"] as? String)
        let put = try await ServerHTTP.send(.PUT, fixture.baseURL + "/StudentLocation/\(objectId)", body: ServerHTTP.pin("1"))
        #expect(put.status == 409, "\(put.body)")
        #expect(put.json["status"] as? Int == 409)
        #expect(try await ServerHTTP.pins(fixture.baseURL, of: "1").count == 1)
        #expect(try await ServerHTTP.pins(fixture.baseURL, of: "2").count == 1)
    }
}
