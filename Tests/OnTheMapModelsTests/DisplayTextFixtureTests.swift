import Foundation
import OnTheMapModels
import OnTheMapTestSupport
import Testing

/// The one rule for showing other people's text, `DisplayText.clean`, against the cases of
/// Tests/Fixtures/display-text.json, which the web page's, Neovim's and Emacs's tests hold their
/// own cleaners to: the next time one of them drifts, its test fails.
@Suite("Shown text, the fixture's cases", .ownThreads)
struct DisplayTextFixtureTests {
    struct Case: Decodable {
        let name: String
        let text: String
        let shown: String
    }

    struct Fixture: Decodable { let cases: [Case] }

    static let fixturePath = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Fixtures/display-text.json").path

    @Test func cleanShowsEachCaseAsTheFixtureSays() throws {
        let data = try #require(FileManager.default.contents(atPath: Self.fixturePath), "no \(Self.fixturePath)")
        let fixture = try JSONDecoder().decode(Fixture.self, from: data)
        #expect(fixture.cases.count >= 15)
        for item in fixture.cases {
            #expect(DisplayText.clean(item.text).unicodeScalars.map(\.value) == item.shown.unicodeScalars.map(\.value), "\(item.name)")
        }
    }
}
