import OnTheMapModels
import Testing

@testable import OnTheMapCLI

/// Which students `onthemap open NAME` means, among those the daemon's search found (a search that
/// also reads places).
@Suite("open by name")
struct OpenCandidatesTests {
    static func pin(_ first: String, _ last: String, _ place: String, _ link: String) -> StudentPin {
        StudentPin(
            student: StudentLocation(
                objectId: first + last, uniqueKey: first, firstName: first, lastName: last, mapString: place, mediaURL: link,
                latitude: 0, longitude: 0, createdAt: nil, updatedAt: nil),
            mine: false)
    }

    static let found = [
        pin("Ada", "Lovelace", "London", "https://ada.example"), pin("Kwame", "McCarthy", "Guadalajara", "https://kwame.example"),
        pin("Ada", "King", "Paris", "https://king.example"), pin("Ada", "Lovelace", "London", "https://ada.example"),
    ]

    static func names(_ name: String) -> [String] {
        OpenCommand.candidates(found, for: name).map(\.student.fullName)
    }

    @Test func aNameMeansTheStudentsOfThatName() {
        #expect(Self.names("ada lovelace") == ["Ada Lovelace"], "the whole name, once")
        #expect(Self.names("Ada") == ["Ada Lovelace", "Ada King"], "names holding the word, not a place that does")
        #expect(Self.names("guadalajara") == ["Ada Lovelace", "Kwame McCarthy", "Ada King"], "no name holds it: every match")
    }
}
