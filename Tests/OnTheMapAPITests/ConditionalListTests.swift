import Foundation
import OnTheMapAPI
import OnTheMapModels
import OnTheMapTestSupport
import Testing

/// `studentLocations(_:ifNoneMatch:)` against the real server: the list with its tag, then "not
/// modified" while no pin changes, then the new list and a new tag after a write.
@Suite("Conditional list reads through the client library", .ownThreads)
struct ConditionalListTests {
    @Test func notModifiedUntilAPinChanges() async throws {
        let bed = try APITestBed(serverArguments: ["--open-writes"])
        _ = try await bed.client.createStudentLocation(bed.draft("First"), session: nil)

        guard case .list(let list, let etag?) = try await bed.client.studentLocations(.mostRecent, ifNoneMatch: nil) else {
            Issue.record("the first read is the list, with a tag")
            return try await bed.close()
        }
        #expect(list.results.map(\.mapString) == ["First"])
        guard case .notModified(let same) = try await bed.client.studentLocations(.mostRecent, ifNoneMatch: etag) else {
            Issue.record("nothing changed: not modified")
            return try await bed.close()
        }
        #expect(same == etag)

        _ = try await bed.client.createStudentLocation(bed.draft("Second", key: "another"), session: nil)
        guard case .list(let after, let newTag?) = try await bed.client.studentLocations(.mostRecent, ifNoneMatch: etag) else {
            Issue.record("a pin changed: the new list")
            return try await bed.close()
        }
        #expect(Set(after.results.map(\.mapString)) == ["First", "Second"])
        #expect(newTag != etag)
        // Another query has a tag of its own: the old one does not pass for it.
        guard case .list = try await bed.client.studentLocations(StudentLocationQuery(limit: 1), ifNoneMatch: newTag) else {
            Issue.record("another query's tag is not this one's")
            return try await bed.close()
        }
        try await bed.close()
    }
}
