import OnTheMapModels
import Testing
import OnTheMapSupport

/// The settings files' one syntax, shared by `onthemapd` and `onthemap-server`.
@Suite("Settings files: key = value lines")
struct SettingsLinesTests {
    @Test func readsKeysValuesAndSkipsCommentsAndBlanks() throws {
        let text = """
            # a comment
              # an indented comment

            api-url = http://example.org/v1
            refresh-interval = 60   # seconds
            database=postgres://onthemap:p#ss@db.example/map
            name = Zoë Ñúñez\r
            """
        #expect(try SettingsLines.parse(text) == [
            .init(line: 4, key: "api-url", value: "http://example.org/v1"),
            .init(line: 5, key: "refresh-interval", value: "60"),
            .init(line: 6, key: "database", value: "postgres://onthemap:p#ss@db.example/map"),
            .init(line: 7, key: "name", value: "Zoë Ñúñez"),
        ])
    }

    @Test(arguments: [
        ("a = 1\nno equals sign here\n", 2),
        ("= no key\n", 1),
        ("a = 1\n\n   = 2   # still no key\n", 3),
        ("socket =\n", 1),
        ("socket =    # a comment is no value\n", 1),
    ])
    func aLineWithoutKeyOrValueIsNamed(text: String, line: Int) {
        #expect(throws: SettingsLines.Malformed(line: line)) { try SettingsLines.parse(text) }
    }

    @Test func aValueMayHoldAnEqualsSign() throws {
        #expect(try SettingsLines.parse("query = a=b=c") == [.init(line: 1, key: "query", value: "a=b=c")])
    }
}
