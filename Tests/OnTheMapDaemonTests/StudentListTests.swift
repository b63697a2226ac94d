import Foundation
import OnTheMapModels
import OnTheMapTestSupport
import Testing

@testable import OnTheMapDaemon

/// A refresh builds the new list from the previous one, keeping what was made of each location that
/// did not change: the result must be what building from nothing gives, whatever changed.
@Suite("The cached list, rebuilt from the one it replaces", .ownThreads)
struct StudentListTests {
    static func location(_ id: String, name: String = "Ada", link: String = "https://example.org/a", at seconds: Double)
        -> StudentLocation
    {
        StudentLocation(
            objectId: id, uniqueKey: "k-\(id)", firstName: name, lastName: "Lovelace", mapString: "London",
            mediaURL: link, latitude: 51.5, longitude: -0.12, createdAt: nil, updatedAt: Date(timeIntervalSince1970: seconds))
    }

    /// What a client can see of a list: each entry's location, search key and JSON bytes, in order.
    static func seen(_ list: StudentList) -> [String] {
        list.entries.map { "\($0.location) | \($0.searchKey) | \(String(decoding: $0.json, as: UTF8.self))" }
    }

    @Test func aListBuiltFromThePreviousOneIsTheListBuiltFromNothing() {
        let before = [
            Self.location("same", at: 10), Self.location("renamed", at: 20), Self.location("relinked", at: 30),
            Self.location("untrimmed", link: "  https://example.org/t ", at: 40), Self.location("gone", at: 50),
            Self.location("hostile", link: "javascript:alert(1)", at: 60),
        ]
        let previous = StudentList(before)
        let after = [
            Self.location("same", at: 10), Self.location("renamed", name: "Béa", at: 20),
            // A link that turns hostile, and one that becomes a web link, keep no stale copy.
            Self.location("relinked", link: "javascript:alert(2)", at: 30),
            Self.location("hostile", link: "https://example.org/fixed", at: 60),
            Self.location("untrimmed", link: "  https://example.org/t ", at: 40), Self.location("new", name: "Grace", at: 70),
        ]
        let rebuilt = StudentList(after, replacing: previous)
        #expect(Self.seen(rebuilt) == Self.seen(StudentList(after)))
        #expect(rebuilt.entries.map(\.location.mediaURL) == [
            "https://example.org/a", "https://example.org/fixed", "https://example.org/t", "", "https://example.org/a",
            "https://example.org/a",
        ])
        #expect(rebuilt.entries.first { $0.location.objectId == "renamed" }?.searchKey == "bea lovelace london")
    }

    @Test func nothingChangedIsTheSameList() {
        let locations = (0..<50).map { Self.location("id\($0)", name: "N\($0)", at: Double($0)) }
        let previous = StudentList(locations)
        let rebuilt = StudentList(locations.reversed(), replacing: previous)
        #expect(Self.seen(rebuilt) == Self.seen(previous))
        #expect(rebuilt.entries.first?.location.objectId == "id49")
    }
}
