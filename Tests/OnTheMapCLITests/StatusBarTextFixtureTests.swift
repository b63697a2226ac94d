import Foundation
import OnTheMapModels
import OnTheMapRPC
import OnTheMapTestSupport
import Testing

@testable import OnTheMapCLI

/// The one rule for a status bar's text (`StatusSummary.text`) against the cases of
/// Tests/Fixtures/bar-text.json, which Neovim's statusline and Emacs's mode line are held to too:
/// the next time one of them drifts, its test fails.
@Suite("A bar's text, the fixture's cases", .ownThreads)
struct StatusBarTextFixtureTests {
    struct Case: Decodable {
        let name: String
        let status: StatusResult
        let text: String
    }

    struct Fixture: Decodable { let cases: [Case] }

    static let fixturePath = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Fixtures/bar-text.json").path

    @Test func aBarShowsEachCaseAsTheFixtureSays() throws {
        let data = try #require(FileManager.default.contents(atPath: Self.fixturePath), "no \(Self.fixturePath)")
        let fixture = try WireCoding.decode(Fixture.self, from: Array(data))
        #expect(fixture.cases.count >= 10)
        for item in fixture.cases {
            let text = StatusSummary(status: item.status, now: Date()).text
            #expect(text.unicodeScalars.map(\.value) == item.text.unicodeScalars.map(\.value), "\(item.name): \(text)")
        }
    }
}
