import Foundation
import OnTheMapAPI
import OnTheMapModels
import OnTheMapTestSupport
import Testing

@Suite("StudentLocation reads and writes against the real server", .ownThreads)
struct StudentLocationTests {
    @Test func postListAndPutWithASession() async throws {
        let bed = try APITestBed()
        let session = try await bed.login()
        let created = try await bed.client.createStudentLocation(bed.draft(), session: session)
        #expect(created.objectId.firstMatch(of: /^[A-Za-z0-9]{10}$/) != nil)

        let mine = try await bed.client.studentLocations(StudentLocationQuery(uniqueKey: bed.accountKey))
        #expect(mine.results.count == 1)
        let pin = try #require(mine.results.first)
        #expect(pin.objectId == created.objectId)
        #expect(pin.draft == bed.draft())
        #expect(pin.createdAt.map(WireTimestamp.milliseconds) == created.createdAt)

        try await Task.sleep(for: .milliseconds(5))
        let updated = try await bed.client.updateStudentLocation(
            objectId: created.objectId, bed.draft("Arlington, VA"), session: session)
        let after = try #require(try await bed.client.studentLocations(StudentLocationQuery(uniqueKey: bed.accountKey)).results.first)
        #expect(after.mapString == "Arlington, VA")
        #expect(after.updatedAt.map(WireTimestamp.milliseconds) == updated.updatedAt)
        #expect(after.createdAt == pin.createdAt)
        #expect(after.updatedAt! > pin.updatedAt!)
        try await bed.close()
    }

    @Test func limitSkipAndOrder() async throws {
        let bed = try APITestBed(serverArguments: ["--open-writes"])
        for (index, place) in ["A", "B", "C", "D", "E"].enumerated() {
            _ = try await bed.client.createStudentLocation(bed.draft(place, key: "k\(index)"), session: nil)
            try await Task.sleep(for: .milliseconds(3))
        }
        let newestFirst = try await bed.client.studentLocations(StudentLocationQuery(order: "-updatedAt"))
        #expect(newestFirst.results.map(\.mapString) == ["E", "D", "C", "B", "A"])
        let page = try await bed.client.studentLocations(StudentLocationQuery(limit: 2, skip: 1, order: "-updatedAt"))
        #expect(page.results.map(\.mapString) == ["D", "C"])
        let byKeyThenPlace = try await bed.client.studentLocations(StudentLocationQuery(order: "-uniqueKey,mapString"))
        #expect(byKeyThenPlace.results.map(\.uniqueKey) == ["k4", "k3", "k2", "k1", "k0"])
        let defaultOrder = try await bed.client.studentLocations(StudentLocationQuery())
        #expect(defaultOrder.results.map(\.mapString) == ["A", "B", "C", "D", "E"])

        let badOrder = await apiError { _ = try await bed.client.studentLocations(StudentLocationQuery(order: "password")) }
        #expect(badOrder?.kind == .badRequest)
        #expect(badOrder?.message.starts(with: "Cannot order by 'password'") == true)
        let badLimit = await apiError { _ = try await bed.client.studentLocations(StudentLocationQuery(limit: 5000)) }
        #expect(badLimit?.kind == .badRequest)
        try await bed.close()
    }

    @Test func writesWithoutASessionAreRefusedByDefault() async throws {
        let bed = try APITestBed()
        let error = await apiError { _ = try await bed.client.createStudentLocation(bed.draft(), session: nil) }
        #expect(error?.kind == .unauthorized)
        #expect(error?.status == 401)
        #expect(error?.message.contains("X-OnTheMap-Session") == true)
        let forged = APISession(accountKey: bed.accountKey, sessionID: "1700000000Sdeadbeef", xsrfToken: nil, expiration: nil)
        let unknown = await apiError { _ = try await bed.client.createStudentLocation(bed.draft(), session: forged) }
        #expect(unknown?.kind == .unauthorized)
        #expect(try await bed.client.studentLocations().results.isEmpty)
        try await bed.close()
    }

    @Test func nobodyCanMoveAnotherPersonsPin() async throws {
        let bed = try APITestBed()
        let grace = try await bed.login()
        let adaKey = try bed.fixture.addUser(email: "ada@example.com", password: "analytical", first: "Ada", last: "Lovelace")
        let ada = try await bed.client.login(.udacity(username: "ada@example.com", password: "analytical"))
        let gracePin = try await bed.client.createStudentLocation(bed.draft(), session: grace)

        // Posting under someone else's key, or changing their pin, is forbidden.
        let impersonation = await apiError { _ = try await bed.client.createStudentLocation(bed.draft(key: bed.accountKey), session: ada) }
        #expect(impersonation?.kind == .forbidden)
        let takeover = await apiError {
            _ = try await bed.client.updateStudentLocation(objectId: gracePin.objectId, bed.draft("Moon", key: adaKey), session: ada)
        }
        #expect(takeover?.kind == .forbidden)
        let missing = await apiError {
            _ = try await bed.client.updateStudentLocation(objectId: "NoSuchPin0", bed.draft(), session: grace)
        }
        #expect(missing?.kind == .notFound)
        let pins = try await bed.client.studentLocations()
        #expect(pins.results.map(\.mapString) == ["Mountain View, CA"])
        try await bed.close()
    }

    @Test func openWritesAcceptsWritesWithoutASession() async throws {
        let bed = try APITestBed(serverArguments: ["--open-writes"])
        let created = try await bed.client.createStudentLocation(bed.draft(key: "anyone"), session: nil)
        _ = try await bed.client.updateStudentLocation(objectId: created.objectId, bed.draft("Paris", key: "anyone"), session: nil)
        let pins = try await bed.client.studentLocations()
        #expect(pins.results.map(\.mapString) == ["Paris"])
        try await bed.close()
    }

    @Test func invalidPinsAreRefusedWithTheField() async throws {
        let bed = try APITestBed()
        let session = try await bed.login()
        var badURL = bed.draft()
        badURL.mediaURL = "javascript:alert(1)"
        var badLatitude = bed.draft()
        badLatitude.latitude = 91
        var badLongitude = bed.draft()
        badLongitude.longitude = -180.5
        var emptyPlace = bed.draft()
        emptyPlace.mapString = "   "
        var longName = bed.draft()
        longName.firstName = String(repeating: "x", count: 101)
        for (draft, field) in [(badURL, "mediaURL"), (badLatitude, "latitude"), (badLongitude, "longitude"), (emptyPlace, "mapString"), (longName, "firstName")] {
            let error = await apiError { _ = try await bed.client.createStudentLocation(draft, session: session) }
            #expect(error?.kind == .badRequest)
            #expect(error?.message.contains(field) == true, "\(error?.message ?? "") should name \(field)")
        }
        #expect(try await bed.client.studentLocations().results.isEmpty)
        try await bed.close()
    }

    @Test func usersEndpoint() async throws {
        let bed = try APITestBed()
        let profile = try await bed.client.user(key: bed.accountKey)
        #expect(profile == UserProfile(firstName: "Grace", lastName: "Hopper", nickname: "Grace", key: bed.accountKey))
        let error = await apiError { _ = try await bed.client.user(key: "0000000000") }
        #expect(error?.kind == .notFound)
        #expect(error?.message == "User not found.")
        try await bed.close()
    }
}
