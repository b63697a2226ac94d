import Foundation
import OnTheMapModels
import OnTheMapRPC
import OnTheMapSupport
import OnTheMapTestSupport
import Testing

@testable import OnTheMapCLI
@testable import OnTheMapClient

/// Every format a script or status bar parses, against golden files.
@Suite("Output formats", .ownThreads)
struct FormatGoldenTests {
    static let now = WireTimestamp.parse("2026-11-22T12:00:00.000Z")!

    static func student(_ first: String, _ last: String, _ place: String, _ link: String, _ lat: Double, _ lon: Double, _ updated: String) -> StudentPin {
        StudentPin(
            student: StudentLocation(
                objectId: "obj" + first.prefix(3), uniqueKey: String(first.count * 1_000_003), firstName: first, lastName: last,
                mapString: place, mediaURL: link, latitude: lat, longitude: lon,
                createdAt: WireTimestamp.parse("2026-01-01T00:00:00.000Z"), updatedAt: WireTimestamp.parse(updated)),
            mine: first == "Ada")
    }

    static let rows: [StudentPin] = [
        student("Ada", "Lovelace", "London, UK", "https://example.com/ada", 51.5074, -0.1278, "2026-11-22T11:59:30.000Z"),
        student("Grace", "Hopper", "Arlington, VA", "https://www.linkedin.com/in/a-very-long-profile-name-that-goes-on", 38.881, -77.104, "2026-11-22T09:00:00.000Z"),
        student("Yukihiro", "Matsumoto", "東京", "https://ruby-lang.org", 35.6762, 139.6503, "2026-11-20T12:00:00.000Z"),
        student("José", "García\tTab", "São Paulo, Brazil", "https://example.com/jose", -23.5505, -46.6333, "2025-10-01T00:00:00.000Z"),
        // What another person may write: escape sequences, a bell, a line break, a bidi override.
        student("Eve\u{1B}[1A\u{1B}[2K", "Mal\u{7}lory", "Lima,\r\nPeru\u{9B}", "https://evil.example/\u{202E}gnp.exe", -12.05, -77.04, "2026-11-21T12:00:00.000Z"),
    ]

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
        // Narrow, LINK is left out before PLACE, then UPDATED, each shown whole or not at all; "(you)"
        // stays whole (`Ada Love… (you)`).
        for width in [40, 30] {
            let table = StudentTable.render(Self.rows, width: width, now: Self.now, style: Style(enabled: false))
            check(table, "table-\(width).txt")
            #expect(table.split(separator: "\n").allSatisfy { DisplayWidth.of(String($0)) <= width })
        }
    }

    /// From 30 columns on your name keeps at least six cells before its "(you)" ("Ada L… (you)"):
    /// at 40 columns it was cut to "A… (you)" to keep a link cut to "https://ada…", which said
    /// nothing (a reviewer's run); the link is left out first now, as in the editors' lists.
    @Test func yourNameKeepsSixCellsFromThirtyColumns() {
        for width in 30...100 {
            let table = StudentTable.render(Self.rows, width: width, now: Self.now, style: Style(enabled: false))
            let yours = table.split(separator: "\n")[1]
            guard let you = yours.range(of: " (you)") else {
                Issue.record("no whole (you) at \(width):\n\(table)")
                continue
            }
            let name = yours[..<you.lowerBound].drop { $0 == "1" || $0 == " " }
            #expect(DisplayWidth.of(String(name)) >= 6, "at \(width) columns your name cut below six:\n\(table)")
        }
    }

    /// LINK is left out first, then PLACE, then UPDATED (the editors' lists drop LINK and PLACE in that
    /// order too); `#` and NAME always show.
    @Test func columnsGoInOneOrder() {
        let order = ["LINK", "PLACE", "UPDATED"]
        var gone: [String] = []
        for width in (20...100).reversed() {
            let header = StudentTable.render(Self.rows, width: width, now: Self.now, style: Style(enabled: false))
                .split(separator: "\n")[0].split(separator: " ", omittingEmptySubsequences: true).map(String.init)
            #expect(header.starts(with: ["#", "NAME"]), "at \(width): \(header)")
            let missing = order.filter { !header.contains($0) }
            #expect(missing == Array(order.prefix(missing.count)), "at \(width) columns \(missing) left out")
            gone = missing
        }
        #expect(gone == order, "at 20 columns still \(gone) left out")
    }

    @Test func tsvHasAHeaderAndNoStrayTabs() {
        let tsv = StudentExports.tsv(Self.rows)
        check(tsv, "students.tsv")
        #expect(tsv.split(separator: "\n").count == Self.rows.count + 1)
        #expect(tsv.split(separator: "\n").allSatisfy { $0.split(separator: "\t", omittingEmptySubsequences: false).count == 10 })
        #expect(!tsv.unicodeScalars.contains { DisplayText.isControl($0) && $0 != "\t" && $0 != "\n" })
    }

    @Test func geoJSONIsAFeatureCollection() throws {
        let text = String(decoding: try StudentExports.geoJSON(Self.rows), as: UTF8.self)
        let value = try JSONDecoder().decode(WireJSON.self, from: Data(text.utf8))
        #expect(value["type"] == .string("FeatureCollection"))
        guard case .array(let features)? = value["features"] else { Issue.record("no features"); return }
        #expect(features.count == 5)
        #expect(features[0]["geometry"]?["coordinates"] == .array([.number(-0.1278), .number(51.5074)]))
        #expect(features[0]["properties"]?["firstName"] == .string("Ada"))
        check(text, "students.geojson")
    }

    static func status(_ account: AccountInfo?, students: StatusResult.Students, place: String?) -> StatusResult {
        let pin = place.map { place in
            StudentPin(
                student: StudentLocation(
                    objectId: "p", uniqueKey: "1", firstName: "Ada", lastName: "Lovelace", mapString: place, mediaURL: "",
                    latitude: 51.5, longitude: -0.12, createdAt: nil, updatedAt: nil),
                mine: true)
        }
        return StatusResult(
            version: "0.1.0", apiURL: "http://127.0.0.1:8080/v1", account: account, students: students, myPin: pin, busy: [],
            uptime: 12)
    }

    static let ada = AccountInfo(key: "1", firstName: "Ada", lastName: "Lovelace")

    static let statuses: [(String, StatusResult?)] = [
        ("ok", status(ada, students: .init(count: 100, refreshedAt: WireTimestamp.parse("2026-11-22T11:58:00.000Z"), stale: false, lastError: nil), place: "London, UK")),
        ("stale", status(ada, students: .init(count: 10_000, skipped: 2, skippedWhy: "2 records left out: firstName is missing (2)", refreshedAt: WireTimestamp.parse("2026-11-22T10:00:00.000Z"), stale: true, lastError: "Cannot reach the OnTheMap API at http://127.0.0.1:8080/v1: the connection was refused. Check the network and the API URL, then retry."), place: nil)),
        ("logged-out", status(nil, students: .init(count: 0, refreshedAt: nil, stale: false, lastError: nil), place: nil)),
        // Logged in, the first list not fetched yet: neither a count nor "refreshed" is known.
        ("fetching", status(ada, students: .init(count: 0, refreshedAt: nil, stale: false, lastError: nil), place: nil)),
        ("offline", nil),
        // A place written by someone else, with polybar's click action and a terminal's escapes in it.
        ("ok", status(ada, students: .init(count: 7, refreshedAt: WireTimestamp.parse("2026-11-22T11:58:00.000Z"), stale: false, lastError: nil), place: "%{A1:touch /tmp/x:}<b>Lima</b> & Co\u{1B}]0;owned\u{7}, Peru%{A}")),
    ]

    static func summary(_ status: StatusResult?) -> StatusSummary {
        StatusSummary(status: status, now: now, reason: status == nil ? "cannot reach onthemapd at /run/user/1000/onthemap/onthemapd.sock (No such file or directory)" : nil)
    }

    /// A bar shows the first part of your place, and at most 24 characters of a place with no comma.
    @Test func aBarShowsAShortPlace() {
        let students = StatusResult.Students(count: 7, refreshedAt: WireTimestamp.parse("2026-11-22T11:58:00.000Z"), stale: false, lastError: nil)
        func text(_ place: String) -> String { Self.summary(Self.status(Self.ada, students: students, place: place)).text }
        #expect(text("Springfield, Ohio, United States") == "📍 7 · Springfield")
        #expect(text(String(repeating: "Lima ", count: 40)) == "📍 7 · " + String(repeating: "Lima ", count: 5).dropLast(2) + "…")
        #expect(Self.summary(Self.status(Self.ada, students: students, place: String(repeating: "x", count: 200))).tooltip.contains(String(repeating: "x", count: 200)))
    }

    @Test(arguments: [StatusBarFormat.waybar, .i3blocks, .polybar, .json])
    func statusBarFormats(format: StatusBarFormat) throws {
        var text = ""
        for (state, status) in Self.statuses {
            text += "## \(state)\n" + (try format.render(Self.summary(status), status: status)) + "\n"
        }
        // Another user's daemon, which refused this user (-32010): running, so not "offline".
        let refused = StatusSummary(.failure(ClientError.refused(at: "/run/user/0/onthemap/onthemapd.sock", by: 0)), now: Self.now)
        text += "## refused\n" + (try format.render(refused, status: nil)) + "\n"
        check(text, "status-\(format.rawValue).txt")
        #expect(!text.unicodeScalars.contains { DisplayText.isControl($0) && $0 != "\n" }, "no control character from the data")
        if format == .polybar {
            // Only the format's own tags are tags: polybar reads every `%{` as one (its parser
            // has no escape), and the data's are broken by a zero-width space.
            #expect(text.contains("%\u{200B}{A1:touch /tmp/x:}"))
            for line in text.split(separator: "\n") where !line.hasPrefix("##") {
                #expect(line.ranges(of: "%{").count == 2, "the colour and its end, no more: \(line.debugDescription)")
            }
        }
        if format == .waybar {
            for (state, status) in Self.statuses {
                let line = try format.render(Self.summary(status), status: status)
                let json = try JSONDecoder().decode(WireJSON.self, from: Data(line.utf8))
                #expect(json["class"] == .string(state))
                // Pango markup of text: no tag and no bare & from the data (a bare & made Waybar
                // drop the whole tooltip).
                for key in ["text", "tooltip"] {
                    let shown = json[key]?.stringValue ?? ""
                    #expect(!shown.contains("<") && !shown.contains(">"), "\(state) \(key): \(shown)")
                    #expect(shown.replacing(/&(amp|lt|gt);/, with: "").firstIndex(of: "&") == nil, "\(state) \(key): \(shown)")
                }
            }
        }
    }

    @Test func humanStatus() {
        var text = ""
        for (state, status) in Self.statuses {
            guard let status else { continue }
            text += "## \(state)\n" + HumanStatus.render(status, style: Style(enabled: false), now: Self.now) + "\n"
        }
        check(text, "status-human.txt")
    }

    /// Counts in sentences are grouped by three ("only the newest 10,000 students were looked at").
    @Test func countsAreGroupedByThree() {
        #expect([0, 950, 1000, 10_000, 1_234_567, -20_100].map(CountText.grouped) == ["0", "950", "1,000", "10,000", "1,234,567", "-20,100"])
        #expect(StudentTable.kilometres(12_345.4) == "12,345" && StudentTable.kilometres(3.14) == "3.1")
        #expect(StudentsCommand.onlyLookedAt(10_000, source: .server) == "only the newest 10,000 students were looked at; the server has more")
        #expect(StudentsCommand.onlyLookedAt(0, source: .cache) == "the server could not be reached, and no students are cached yet")
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

    /// A message quoted inside a sentence is a clause of it: its first sentence, no full stop of its
    /// own, in lower case but for a word in capitals ("stale: Cannot reach … then retry.; refreshed").
    @Test func aQuotedMessageIsAClause() {
        #expect(Clause.of("Cannot reach the API at x: refused. Check the network, then retry.") == "cannot reach the API at x: refused")
        #expect(Clause.of("API down.") == "API down")
        #expect(Clause.of("A server error.") == "a server error")
        #expect(Clause.of("not refreshed lately") == "not refreshed lately")
        #expect(!Clause.of("Bell\u{7} rung.").unicodeScalars.contains("\u{7}"), "shown safe")
    }
}
