import Foundation
import OnTheMapModels
import OnTheMapRPC
import OnTheMapTestSupport
import Testing

@testable import OnTheMapCLI

/// Every format a script or status bar parses, against golden files.
@Suite("Output formats", .ownThreads)
struct FormatGoldenTests {
    static let now = WireTimestamp.parse("2026-11-22T12:00:00.000Z")!

    static func student(_ first: String, _ last: String, _ place: String, _ link: String, _ lat: Double, _ lon: Double, _ updated: String) -> WireJSON {
        StudentLocation(
            objectId: "obj" + first.prefix(3), uniqueKey: String(first.count * 1_000_003), firstName: first, lastName: last,
            mapString: place, mediaURL: link, latitude: lat, longitude: lon,
            createdAt: WireTimestamp.parse("2026-01-01T00:00:00.000Z"), updatedAt: WireTimestamp.parse(updated)
        ).wireJSON
    }

    static let rows: [StudentRow] = [
        student("Ada", "Lovelace", "London, UK", "https://example.com/ada", 51.5074, -0.1278, "2026-11-22T11:59:30.000Z"),
        student("Grace", "Hopper", "Arlington, VA", "https://www.linkedin.com/in/a-very-long-profile-name-that-goes-on", 38.881, -77.104, "2026-11-22T09:00:00.000Z"),
        student("Yukihiro", "Matsumoto", "東京", "https://ruby-lang.org", 35.6762, 139.6503, "2026-11-20T12:00:00.000Z"),
        student("José", "García\tTab", "São Paulo, Brazil", "https://example.com/jose", -23.5505, -46.6333, "2025-10-01T00:00:00.000Z"),
    ].map(StudentRow.init)

    private func check(_ text: String, _ name: String, sourceLocation: SourceLocation = #_sourceLocation) {
        if let mismatch = GoldenFile.mismatch(text, name: name, testFile: #filePath) {
            Issue.record(Comment(rawValue: mismatch), sourceLocation: sourceLocation)
        }
    }

    @Test func tableFitsTheTerminal() {
        check(StudentTable.render(Self.rows, width: nil, now: Self.now, style: Style(enabled: false)), "table-unlimited.txt")
        let narrow = StudentTable.render(Self.rows, width: 60, now: Self.now, style: Style(enabled: false))
        check(narrow, "table-60.txt")
        #expect(narrow.split(separator: "\n").allSatisfy { DisplayWidth.of(String($0)) <= 60 })
    }

    @Test func tsvHasAHeaderAndNoStrayTabs() {
        let tsv = StudentExports.tsv(Self.rows)
        check(tsv, "students.tsv")
        #expect(tsv.split(separator: "\n").allSatisfy { $0.split(separator: "\t", omittingEmptySubsequences: false).count == 10 })
    }

    @Test func geoJSONIsAFeatureCollection() throws {
        let text = StudentExports.geoJSON(Self.rows)
        let value = try JSONDecoder().decode(WireJSON.self, from: Data(text.utf8))
        #expect(value["type"] == .string("FeatureCollection"))
        guard case .array(let features)? = value["features"] else { Issue.record("no features"); return }
        #expect(features.count == 4)
        #expect(features[0]["geometry"]?["coordinates"] == .array([.number(-0.1278), .number(51.5074)]))
        #expect(features[0]["properties"]?["firstName"] == .string("Ada"))
        check(text, "students.geojson")
    }

    static let statuses: [(String, WireJSON?)] = [
        ("ok", .object([
            ("loggedIn", .bool(true)), ("account", .object([("key", .string("1")), ("firstName", .string("Ada")), ("lastName", .string("Lovelace"))])),
            ("students", .object([("count", .integer(100)), ("refreshedAt", .string("2026-11-22T11:58:00.000Z")), ("stale", .bool(false)), ("lastError", .null)])),
            ("myPin", .object([("mapString", .string("London, UK"))])), ("apiURL", .string("http://127.0.0.1:8080/v1")),
        ])),
        ("stale", .object([
            ("loggedIn", .bool(true)), ("account", .object([("key", .string("1")), ("firstName", .string("Ada")), ("lastName", .string("Lovelace"))])),
            ("students", .object([("count", .integer(100)), ("unplaceable", .integer(2)), ("refreshedAt", .string("2026-11-22T10:00:00.000Z")), ("stale", .bool(true)), ("lastError", .string("Cannot reach the OnTheMap API"))])),
            ("myPin", .null), ("apiURL", .string("http://127.0.0.1:8080/v1")),
        ])),
        ("logged-out", .object([
            ("loggedIn", .bool(false)), ("account", .null),
            ("students", .object([("count", .integer(0)), ("refreshedAt", .null), ("stale", .bool(false)), ("lastError", .null)])),
            ("myPin", .null), ("apiURL", .string("http://127.0.0.1:8080/v1")),
        ])),
        ("offline", nil),
    ]

    @Test(arguments: [StatusBarFormat.waybar, .i3blocks, .polybar])
    func statusBarFormats(format: StatusBarFormat) throws {
        var text = ""
        for (state, status) in Self.statuses {
            text += "## \(state)\n" + format.render(StatusSummary(status: status.map(StatusResult.init(wireJSON:)), now: Self.now), status: status) + "\n"
        }
        check(text, "status-\(format.rawValue).txt")
        if format == .waybar {
            for (state, status) in Self.statuses {
                let line = format.render(StatusSummary(status: status.map(StatusResult.init(wireJSON:)), now: Self.now), status: status)
                let json = try JSONDecoder().decode(WireJSON.self, from: Data(line.utf8))
                #expect(json["class"] == .string(state))
            }
        }
    }

    @Test func humanStatus() {
        var text = ""
        for (state, status) in Self.statuses {
            guard let status else { continue }
            text += "## \(state)\n" + HumanStatus.render(StatusResult(wireJSON: status), style: Style(enabled: false), now: Self.now) + "\n"
        }
        check(text, "status-human.txt")
    }

    @Test func globalSocketOptionMovesAfterTheSubcommand() {
        #expect(OnTheMapMain.hoistingGlobalOptions(["--socket", "/s", "status", "--json"]) == ["status", "--socket", "/s", "--json"])
        #expect(OnTheMapMain.hoistingGlobalOptions(["--socket=/s", "students"]) == ["students", "--socket=/s"])
        #expect(OnTheMapMain.hoistingGlobalOptions(["status", "--socket", "/s"]) == ["status", "--socket", "/s"])
    }

    @Test func relativeTimes() {
        #expect(RelativeTime.describe("2026-11-22T11:59:30.000Z", now: Self.now) == "just now")
        #expect(RelativeTime.describe("2026-11-22T11:55:00.000Z", now: Self.now) == "5 min ago")
        #expect(RelativeTime.describe("2026-11-22T09:00:00.000Z", now: Self.now) == "3 h ago")
        #expect(RelativeTime.describe("2026-11-10T12:00:00.000Z", now: Self.now) == "12 d ago")
        #expect(RelativeTime.describe(nil, now: Self.now) == "—")
    }
}
