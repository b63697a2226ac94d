import Foundation
import NIOHTTP1
import OnTheMapModels
import OnTheMapServer
import OnTheMapTestSupport
import Testing

/// A Parse-dialect PUT sends only the fields it changes; the server merges them into the pin as it
/// read it. Two PUTs by one account at once must not undo each other: each writes only if the pin
/// is still the version it read (`updateLocation(…ifUpdatedAt:…)`), and reads again if not.
@Suite("A Parse PUT merges into the pin as it is", .ownThreads)
struct ParseMergeTests {
    @Test func aWriteHeldToAnOldVersionChangesNothing() async throws {
        try await TestStorage.with { (storage: any ServerStorage) async throws in
            let draft = StudentLocationDraft.graceInParis
            let posted = try await storage.postLocation(draft, objectId: "pin-1", now: Date())
            let read = try #require(try await storage.location(objectId: posted.objectId)?.updatedAt)
            // Two writes in the same millisecond still make two versions.
            let now = Date()
            var first = draft
            first.firstName = "Amazing Grace"
            guard case .updated(let afterFirst) = try await storage.updateLocation(
                objectId: posted.objectId, with: first, ownedBy: "grace", ifUpdatedAt: read, now: now)
            else {
                Issue.record("a write held to the version just read was refused")
                return
            }
            let firstVersion = try #require(afterFirst.updatedAt)
            #expect(firstVersion > read)
            let version = try await storage.locationsVersion()

            var second = draft
            second.lastName = "Hopper-Murray"
            #expect(
                try await storage.updateLocation(
                    objectId: posted.objectId, with: second, ownedBy: "grace", ifUpdatedAt: read, now: now) == .changedSinceRead)
            let stored = try #require(try await storage.location(objectId: posted.objectId))
            #expect(stored.firstName == "Amazing Grace")
            #expect(stored.lastName == "Hopper")
            #expect(try await storage.locationsVersion() == version)

            // Held to the version it now is, in the same millisecond as the write before.
            guard case .updated(let afterSecond) = try await storage.updateLocation(
                objectId: posted.objectId, with: second, ownedBy: "grace", ifUpdatedAt: firstVersion, now: now)
            else {
                Issue.record("a write held to the current version was refused")
                return
            }
            #expect(try #require(afterSecond.updatedAt) > firstVersion)
            // A POST that moves the account's pin is a write too, in the same millisecond as well.
            let moved = try await storage.postLocation(second, objectId: "pin-2", now: now)
            #expect(moved.objectId == posted.objectId)
            #expect(try #require(try await storage.location(objectId: posted.objectId)?.updatedAt) > afterSecond.updatedAt!)
            // The other refusals keep their own answers when a version is given too.
            #expect(
                try await storage.updateLocation(
                    objectId: "no-such-pin", with: second, ownedBy: "grace", ifUpdatedAt: read, now: now) == .notFound)
            #expect(
                try await storage.updateLocation(
                    objectId: posted.objectId, with: second, ownedBy: "ada", ifUpdatedAt: afterSecond.updatedAt, now: now)
                    == .ownedByAnother)
            // Open writes (no owner) are held to the version too.
            #expect(
                try await storage.updateLocation(objectId: posted.objectId, with: second, ownedBy: nil, ifUpdatedAt: read, now: now)
                    == .changedSinceRead)
        }
    }

    @Test func concurrentPutsOfOneAccountKeepEachOthersFields() async throws {
        let fixture = try ServerFixture()
        defer { fixture.tearDown() }
        try fixture.addUser(email: "grace@example.com", password: "cobol-1959")
        let grace = try await ServerHTTP.login(fixture.baseURL, email: "grace@example.com", password: "cobol-1959")
        let posted = try await ServerHTTP.send(
            .POST, fixture.baseURL + "/StudentLocation", body: ServerHTTP.pin(grace.key),
            headers: [("X-OnTheMap-Session", grace.session)])
        let objectId = try #require(posted.json["objectId"] as? String)
        let root = String(fixture.baseURL.dropLast("/v1".count))
        let pinURL = root + "/parse/classes/StudentLocation/\(objectId)"
        let headers = ServerHTTP.parseHeaders(session: grace.session)
        // Each round, three PUTs at once, each changing a different field. Merged into a stale read,
        // one would write back the others' old values (without the version check, nearly every round did).
        var lost: [String] = []
        for round in 0..<30 {
            let bodies = [
                #"{"firstName":"First \#(round)"}"#, #"{"lastName":"Last \#(round)"}"#, #"{"mapString":"Place \#(round)"}"#,
            ]
            let statuses = try await withThrowingTaskGroup(of: Int.self) { group in
                for body in bodies { group.addTask { try await ServerHTTP.send(.PUT, pinURL, body: body, headers: headers).status } }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            #expect(statuses == [200, 200, 200], "round \(round)")
            let pin = try await ServerHTTP.send(.GET, pinURL, headers: headers).json
            let fields = [pin["firstName"], pin["lastName"], pin["mapString"]].map { $0 as? String ?? "?" }
            if fields != ["First \(round)", "Last \(round)", "Place \(round)"] {
                lost.append("round \(round): \(fields)")
            }
        }
        #expect(lost.isEmpty, "fields undone by a concurrent PUT: \(lost)")
    }
}
