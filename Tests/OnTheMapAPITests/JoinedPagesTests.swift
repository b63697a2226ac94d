import FoundationEssentials
import OnTheMapModels
import Testing

@testable import OnTheMapAPI

/// How `OnTheMapAPIClient.newest` puts pages together, where a pin moved during a fetch is sent twice.
struct JoinedPagesTests {
    private func location(_ id: String) -> StudentLocation {
        StudentLocation(
            objectId: id, uniqueKey: "u\(id)", firstName: "Ada", lastName: id, mapString: "Lima, Peru",
            mediaURL: "https://example.com", latitude: -12, longitude: -77, createdAt: nil, updatedAt: nil)
    }

    /// Pages of two: the first is [a b]; then someone posts pin "n", which goes to the top, so the
    /// second page (skip 2) is [b c]. "b" is kept once, and all 4 records sent are counted: a
    /// caller that wanted 3 learns that the server has more (it holds n a b c), although only 3
    /// distinct students arrived.
    @Test func aStudentSentTwiceIsKeptOnceAndStillCounted() {
        let first = StudentLocationList(results: [location("a"), location("b")])
        let second = StudentLocationList(results: [location("b"), location("c")])
        let (list, received) = OnTheMapAPIClient.joined([(0, first), (2, second)])
        #expect(list.results.map(\.objectId) == ["a", "b", "c"])
        #expect(received == 4)
    }

    /// Skipped records count as received and keep their place in the whole list.
    @Test func skippedRecordsAreCountedWhereTheyStood() {
        let first = StudentLocationList(results: [location("a")], skipped: [SkippedRecord(index: 1, objectId: "x", reason: "firstName is missing")])
        let second = StudentLocationList(results: [location("c")], skipped: [SkippedRecord(index: 0, objectId: "y", reason: "latitude 99.0 is out of range")])
        let (list, received) = OnTheMapAPIClient.joined([(0, first), (2, second)])
        #expect(list.skipped.map(\.index) == [1, 2])
        #expect(received == 4)
    }
}
