import Foundation
import NIOHTTP1
import OnTheMapServer
import OnTheMapModels
import OnTheMapTestSupport
import Testing

/// With sessions, only a pin's own account changes it, on both dialects; the write itself checks
/// whose pin it is (`LocationStore.updateLocation(…ownedBy:…)`).
@Suite("Only a pin's account changes it", .ownThreads)
struct PinOwnershipTests {
    @Test func anotherAccountsPutIsRefusedAndChangesNothing() async throws {
        let fixture = try ServerFixture()
        defer { fixture.tearDown() }
        try fixture.addUser(email: "grace@example.com", password: "cobol-1959")
        try fixture.addUser(email: "ada@example.com", password: "engine-1843")
        let grace = try await ServerHTTP.login(fixture.baseURL, email: "grace@example.com", password: "cobol-1959")
        let ada = try await ServerHTTP.login(fixture.baseURL, email: "ada@example.com", password: "engine-1843")
        let posted = try await ServerHTTP.send(
            .POST, fixture.baseURL + "/StudentLocation", body: ServerHTTP.pin(grace.key),
            headers: [("X-OnTheMap-Session", grace.session)])
        let objectId = try #require(posted.json["objectId"] as? String)
        let pinURL = fixture.baseURL + "/StudentLocation/\(objectId)"

        // Ada's draft names Ada: the pin is Grace's, so the write refuses it.
        let taken = try await ServerHTTP.send(
            .PUT, pinURL, body: ServerHTTP.pin(ada.key, mapString: "Taken"), headers: [("X-OnTheMap-Session", ada.session)])
        #expect(taken.status == 403, "\(taken.body)")
        // Ada's draft names Grace: refused before any write.
        let forged = try await ServerHTTP.send(
            .PUT, pinURL, body: ServerHTTP.pin(grace.key, mapString: "Forged"), headers: [("X-OnTheMap-Session", ada.session)])
        #expect(forged.status == 403, "\(forged.body)")
        // The Parse dialect's PUT, with Ada's session.
        let root = String(fixture.baseURL.dropLast("/v1".count))
        let parse = try await ServerHTTP.send(
            .PUT, root + "/parse/classes/StudentLocation/\(objectId)", body: #"{"mapString":"Parsed"}"#,
            headers: ServerHTTP.parseHeaders(session: ada.session))
        #expect(parse.status == 403, "\(parse.body)")
        let missing = try await ServerHTTP.send(
            .PUT, fixture.baseURL + "/StudentLocation/no-such-pin", body: ServerHTTP.pin(ada.key),
            headers: [("X-OnTheMap-Session", ada.session)])
        #expect(missing.status == 404, "\(missing.body)")
        #expect(try await ServerHTTP.pins(fixture.baseURL, of: grace.key).first?["mapString"] as? String == "Paris, France")
        #expect(try await ServerHTTP.pins(fixture.baseURL, of: ada.key).isEmpty)

        let own = try await ServerHTTP.send(
            .PUT, pinURL, body: ServerHTTP.pin(grace.key, mapString: "Lyon, France"),
            headers: [("X-OnTheMap-Session", grace.session)])
        #expect(own.status == 200, "\(own.body)")
        #expect(try await ServerHTTP.pins(fixture.baseURL, of: grace.key).first?["mapString"] as? String == "Lyon, France")
    }

    @Test func theStorageChecksTheOwnerInTheWrite() async throws {
        try await TestStorage.with { (storage: any ServerStorage) async throws in
            let draft = StudentLocationDraft.graceInParis
            let posted = try await storage.postLocation(draft, objectId: "pin-1", now: Date())
            var moved = draft
            moved.mapString = "Lyon, France"
            let version = try await storage.locationsVersion()
            #expect(try await storage.updateLocation(objectId: "pin-2", with: moved, ownedBy: "grace", ifUpdatedAt: nil, now: Date()) == .notFound)
            #expect(try await storage.updateLocation(objectId: posted.objectId, with: moved, ownedBy: "ada", ifUpdatedAt: nil, now: Date()) == .ownedByAnother)
            #expect(try await storage.location(objectId: posted.objectId)?.mapString == "Paris, France")
            // Nothing changed, so the pins' version did not either: no cache anywhere drops its list.
            #expect(try await storage.locationsVersion() == version)
            guard case .updated(let pin) = try await storage.updateLocation(objectId: posted.objectId, with: moved, ownedBy: "grace", ifUpdatedAt: nil, now: Date()) else {
                Issue.record("the owner's update was refused")
                return
            }
            #expect(pin.mapString == "Lyon, France")
            #expect(try await storage.locationsVersion() > version)
            // No owner named (open writes): any pin may be changed.
            moved.mapString = "Nice, France"
            guard case .updated = try await storage.updateLocation(objectId: posted.objectId, with: moved, ownedBy: nil, ifUpdatedAt: nil, now: Date()) else {
                Issue.record("an open write was refused")
                return
            }
            #expect(try await storage.location(objectId: posted.objectId)?.mapString == "Nice, France")
        }
    }
}
