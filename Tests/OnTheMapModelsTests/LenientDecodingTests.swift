import Foundation
import OnTheMapModels
import OnTheMapTestSupport
import Testing

@Suite("Decoding real-world StudentLocation records", .ownThreads)
struct LenientDecodingTests {
    let list: StudentLocationList

    init() throws {
        let url = try #require(Bundle.module.url(forResource: "messy-locations", withExtension: "json", subdirectory: "Fixtures"))
        list = try JSONDecoder().decode(StudentLocationList.self, from: Data(contentsOf: url))
    }

    @Test func placeableRecordsAreKeptInOrder() {
        #expect(list.results.map(\.objectId) == ["JhOtcRkxsh", "kj18GEaWD8", "Minimal"])
    }

    @Test func cleanRecordDecodesExactly() throws {
        let jarrod = try #require(list.results.first)
        #expect(jarrod.uniqueKey == "996618664")
        #expect(jarrod.fullName == "Jarrod Parkes")
        #expect(jarrod.mapString == "Huntsville, Alabama")  // trailing space trimmed
        #expect(jarrod.latitude == 34.7303688)
        #expect(jarrod.longitude == -86.5861037)
        #expect(jarrod.createdAt.map(WireTimestamp.milliseconds) == "2015-02-25T01:10:38.103Z")
        #expect(jarrod.updatedAt.map(WireTimestamp.milliseconds) == "2015-03-09T22:04:50.315Z")
    }

    @Test func messyRecordIsRepaired() throws {
        let record = list.results[1]
        #expect(record.uniqueKey == "872458750")  // number became text
        #expect(record.firstName == "")  // null became empty
        #expect(record.mediaURL == "https://udacity.com")  // mediaUrl accepted
        #expect(record.latitude == 37.386052)  // coordinates given as strings
        #expect(record.longitude == -122.083851)
        #expect(record.updatedAt == nil)
    }

    @Test func unplaceableRecordsAreCountedWithReasons() {
        #expect(list.unplaceable.map(\.index) == [2, 3, 4, 5, 7])
        #expect(list.unplaceable.map(\.reason) == [
            "latitude is missing",
            "longitude 200.0 is out of range",
            "latitude is not a number",
            "not a location object",
            "latitude is not a number",
        ])
        #expect(list.unplaceable[0].objectId == "NoLatitude")
        #expect(list.unplaceable[3].objectId == nil)
    }

    @Test func missingResultsIsAnError() {
        #expect(throws: DecodingError.self) {
            try JSONDecoder().decode(StudentLocationList.self, from: Data(#"{"error":"nope"}"#.utf8))
        }
    }
}
