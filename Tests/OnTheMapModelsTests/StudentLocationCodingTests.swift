import Foundation
import OnTheMapModels
import OnTheMapTestSupport
import Testing

/// A student location is coded one way, `WireCoding` over Swift's synthesized `Codable`, and read
/// strictly: a record without a required field is skipped and counted, naming the field.
@Suite("Student locations, coded strictly", .ownThreads)
struct StudentLocationCodingTests {
    let list: StudentLocationList

    init() throws {
        let url = try #require(Bundle.module.url(forResource: "strict-locations", withExtension: "json", subdirectory: "Fixtures"))
        list = try WireCoding.decode(StudentLocationList.self, from: Data(contentsOf: url))
    }

    @Test func recordsWithEveryRequiredFieldAreKeptInOrder() throws {
        #expect(list.results.map(\.objectId) == ["JhOtcRkxsh", "Minimal"])
        let jarrod = try #require(list.results.first)
        #expect(jarrod.uniqueKey == "996618664")
        #expect(jarrod.fullName == "Jarrod Parkes")
        #expect(jarrod.latitude == 34.7303688)
        #expect(jarrod.createdAt.map(WireTimestamp.milliseconds) == "2015-02-25T01:10:38.103Z")
        #expect(jarrod.updatedAt.map(WireTimestamp.milliseconds) == "2015-03-09T22:04:50.315Z")
        #expect(list.results[1].updatedAt == nil)
    }

    @Test func otherRecordsAreSkippedNamingTheField() {
        #expect(list.skipped.map(\.index) == [1, 2, 3, 4, 5, 7, 8])
        #expect(list.skipped.map(\.reason) == [
            "firstName is missing",
            "firstName is null",
            "latitude is not a number",
            "longitude 200.0 is out of range",
            "the record is not an object",
            "updatedAt is not readable",
            "mediaURL is missing",
        ])
        #expect(list.skipped[3].objectId == "FarLongitude")
        #expect(SkippedRecord.summary(list.skipped) == "7 records left out: firstName is missing (1), firstName is null (1), latitude is not a number (1), …")
    }

    /// JSON has no NaN: a list holding a pin with one is still written (its coordinate as text), and a
    /// reader leaves that record out, counted, and keeps the others.
    @Test func aCoordinateThatIsNotANumberLeavesOnlyItsRecordOut() throws {
        let good = StudentLocation(
            objectId: "good", uniqueKey: "1", firstName: "Ada", lastName: "L", mapString: "Lima", mediaURL: "",
            latitude: -12, longitude: -77, createdAt: nil, updatedAt: nil)
        var bad = good
        bad.objectId = "bad"
        bad.latitude = .nan
        let written = try WireCoding.encode(StudentLocationList(results: [good, bad]))
        #expect(String(decoding: written, as: UTF8.self).contains(#""latitude":"NaN""#))
        let read = try WireCoding.decode(StudentLocationList.self, from: written)
        #expect(read.results.map(\.objectId) == ["good"])
        #expect(read.skipped.map(\.reason) == ["latitude is not a number"], "\(read.skipped)")
    }

    @Test func missingResultsIsAnError() {
        #expect(throws: DecodingError.self) {
            try WireCoding.decode(StudentLocationList.self, from: Array(#"{"error":"nope"}"#.utf8))
        }
    }

    /// Parse's order (alphabetical) and timestamps to the millisecond: what the server and the
    /// daemon both write.
    @Test func encodingIsSortedWithMillisecondTimestamps() throws {
        let location = StudentLocation(
            objectId: "a\"b", uniqueKey: "42", firstName: "Zoë\n", lastName: "東京", mapString: "São Paulo",
            mediaURL: "https://example.org/a?b=c&d", latitude: -23.5505, longitude: -46, createdAt: Date(timeIntervalSince1970: 1_424_826_638.103),
            updatedAt: nil)
        #expect(try JSONText.of(location) == #"{"createdAt":"2015-02-25T01:10:38.103Z","firstName":"Zoë\n","lastName":"東京","latitude":-23.5505,"longitude":-46,"mapString":"São Paulo","mediaURL":"https://example.org/a?b=c&d","objectId":"a\"b","uniqueKey":"42"}"#)
        #expect(try JSONText.roundTrip(location) == location)
    }

    @Test func listsOfAThousandReadBackUnchanged() throws {
        let locations = (0..<1000).map { (index: Int) -> StudentLocation in
            StudentLocation(
                objectId: "id\(index)", uniqueKey: "\(index * 7)", firstName: "Name \(index)", lastName: "Ünïcode \(index)",
                mapString: "City \(index), Country", mediaURL: "https://example.org/\(index)",
                latitude: Double(index % 180) - 89.5 + 0.123456, longitude: Double(index % 360) - 179.75,
                createdAt: Date(timeIntervalSince1970: 1_400_000_000.001 + Double(index)),
                updatedAt: Date(timeIntervalSince1970: 1_500_000_000.999 + Double(index)))
        }
        let list = StudentLocationList(results: locations)
        #expect(try WireCoding.decode(StudentLocationList.self, from: WireCoding.encode(list)) == list)
    }
}
