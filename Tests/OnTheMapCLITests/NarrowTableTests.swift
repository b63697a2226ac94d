import Foundation
import OnTheMapModels
import OnTheMapSupport
import OnTheMapTestSupport
import Testing

@testable import OnTheMapCLI

/// Every table the CLI prints fits a narrow terminal, by one rule (`TextTable`): `students`,
/// `students --near`, the students a name in `open` matches, the map's legend. Below 46 columns the
/// tables printed 44–46-column lines that wrapped, UPDATED split across two lines ("1 m" / "in ago")
/// (a reviewer's run in a 40-column tmux pane).
@Suite("Tables in narrow terminals", .ownThreads)
struct NarrowTableTests {
    static let widths = [20, 25, 30, 40, 45, 46, 60]

    /// The first line of a table: "#" right-aligned over the row numbers.
    static func isHeader(_ line: String) -> Bool { line.trimmingPrefix(" ").hasPrefix("#  NAME") }

    /// The checks every table line passes at `width`: it fits; your row says "(you)" whole; UPDATED is
    /// a whole time on every row, or the column is not there at all.
    static func checkFits(
        _ lines: [String], width: Int, header: Bool, _ what: String, sourceLocation: SourceLocation = #_sourceLocation
    ) {
        let shown = lines.joined(separator: "\n")
        guard !lines.isEmpty else {
            Issue.record("\(what) at \(width): no table", sourceLocation: sourceLocation)
            return
        }
        for line in lines {
            #expect(
                DisplayWidth.of(line) <= width, "\(what) at \(width): a line wider than that:\n\(shown)",
                sourceLocation: sourceLocation)
        }
        let rows = header ? Array(lines.dropFirst()) : lines
        #expect(
            rows.contains { $0.contains("(you)") }, "\(what) at \(width): your row without a whole (you):\n\(shown)",
            sourceLocation: sourceLocation)
        #expect(
            !rows.contains { $0.contains("(yo") && !$0.contains("(you)") }, "\(what) at \(width): (you) cut:\n\(shown)",
            sourceLocation: sourceLocation)
        guard header else { return }
        let updated = lines[0].hasSuffix("UPDATED")
        for row in rows {
            let last = String(row.split(separator: "  ").last ?? "").trimmingCharacters(in: .whitespaces)
            if updated {
                #expect(
                    last.wholeMatch(of: /just now|[0-9]+ (min|h|d|y) ago/) != nil,
                    "\(what) at \(width): UPDATED cut:\n\(shown)", sourceLocation: sourceLocation)
            } else {
                #expect(
                    !row.hasSuffix("ago") && !row.hasSuffix("now"),
                    "\(what) at \(width): a time with no UPDATED:\n\(shown)", sourceLocation: sourceLocation)
            }
        }
    }

    /// The narrowest case: a `--near` list of 100 rows (a three-digit `#`), your row's name cut to
    /// "A… (you)", a distance of five digits: at 20 columns with two spaces between columns it was one
    /// column too wide, and its lines wrapped; the columns go one space apart.
    @Test func aNearListOfAHundredFitsTwentyColumns() {
        let rows = (0..<100).map { index in
            StudentPin(
                student: StudentLocation(
                    objectId: "o\(index)", uniqueKey: "k\(index)", firstName: "Ada", lastName: "Lovelace \(index)",
                    mapString: "Sydney, New South Wales, Australia", mediaURL: "https://example.com/\(index)",
                    latitude: -33.87, longitude: 151.21, createdAt: nil, updatedAt: nil),
                mine: index == 0, distanceKm: 16_990 + Double(index))
        }
        let lines = StudentTable.render(rows, width: 20, now: Date(), style: Style(enabled: false)).split(separator: "\n").map(String.init)
        Self.checkFits(lines, width: 20, header: true, "students --near")
        #expect(lines.first == "  # NAME         KM", "\(lines.prefix(3))")
        #expect(lines.dropFirst().first == "  1 A… (you) 16,990", "\(lines.prefix(3))")
    }

    @Test func everyTableFitsTheWidth() throws {
        let bed = try CLITestBed()
        // Your pin, the newest: in the first rows, and first near Paris.
        let posted = try bed.run([
            "post", "Paris, France", "https://ada.example/a-profile-link", "--yes", "--overwrite",
        ])
        #expect(posted.status == 0, "\(posted.stderr)")
        for width in Self.widths {
            let columns = ["COLUMNS": String(width)]
            let students = try bed.run(["students", "--limit", "3"], extra: columns)
            #expect(students.status == 0, "\(students.stderr)")
            Self.checkFits(
                students.stdout.split(separator: "\n").map(String.init), width: width, header: true, "students")

            let near = try bed.run(
                ["students", "--near", "Paris, France", "--radius", "3000", "--limit", "12"], extra: columns)
            #expect(near.status == 0, "\(near.stderr)")
            let nearLines = near.stdout.split(separator: "\n").map(String.init)
            Self.checkFits(nearLines, width: width, header: true, "students --near")
            #expect(nearLines.first?.contains("KM") == true, "students --near at \(width): no KM:\n\(near.stdout)")

            // A name several students match: they are listed on stderr, after one line saying so.
            let matched = try bed.run(["open", "a"], extra: columns)
            #expect(matched.status == 1, "\(matched.stderr)")
            let listed = matched.stderr.split(separator: "\n").map(String.init).drop { !Self.isHeader($0) }
            Self.checkFits(Array(listed), width: width, header: true, "open's matches")

            // The map: rows as wide as the terminal, then the legend (piped: all of it).
            let map = try bed.run(["map"], extra: columns.merging(["LINES": "16", "LANG": "C.UTF-8"]) { $1 })
            #expect(map.status == 0, "\(map.stderr)")
            let legend = map.stdout.split(separator: "\n").map(String.init).dropFirst(15)
            Self.checkFits(Array(legend), width: width, header: false, "map's legend")
        }
    }

    @Test("In a 40-column tmux pane no line of `students` wraps")
    func inANarrowPane() throws {
        guard let bed = try CLITestBed.forPane() else { return }
        let pane = try TmuxSession(
            command: TmuxSession.reportingExit("\(BuiltProducts.path("onthemap")) students --limit 3"), width: 40,
            height: 12,
            environment: bed.paneEnvironment)
        defer { pane.tearDown() }
        #expect(try pane.waitForExit() == 0)
        let joined = try Self.joinedLines(of: pane)
        let table = Array(joined.drop { !Self.isHeader($0) }.prefix(4))
        #expect(table.count == 4, "\(joined.joined(separator: "\n"))")
        for line in table { #expect(DisplayWidth.of(line) <= 40, "wrapped:\n\(joined.joined(separator: "\n"))") }
    }

    /// What a pane shows, its history too, each line the terminal wrapped joined back into one
    /// (`-J`): wider than the pane where it wrapped.
    static func joinedLines(of pane: TmuxSession) throws -> [String] {
        try pane.tmux(["capture-pane", "-p", "-J", "-t", "0", "-S", "-100"]).split(separator: "\n").map(String.init)
    }

    @Test("In 30-, 40- and 80-column tmux panes the line over open's matches fits, broken between words")
    func openSaysHowManyMatchWithinTheWidth() throws {
        guard let bed = try CLITestBed.forPane() else { return }
        // "a" matches more than the 20 asked for: the longest sentence ("119 students match "a"; 15 of
        // them, newest first; open one with …", a student's repeated link counted once), 92 columns.
        // A name of 30 words is shortened where it does not fit a line.
        let long = Array(repeating: "a", count: 30).joined(separator: " ")
        for width in [30, 40, 80] {
            for name in ["a", long] {
                let pane = try TmuxSession(
                    command: TmuxSession.reportingExit("\(BuiltProducts.path("onthemap")) open \(name)"), width: width,
                    height: 30, environment: bed.paneEnvironment)
                defer { pane.tearDown() }
                #expect(try pane.waitForExit() == 1)
                let lines = try Self.joinedLines(of: pane)
                let shown = "at \(width), open \(name.count > 1 ? "a … a" : name):\n\(lines.joined(separator: "\n"))"
                guard let first = lines.firstIndex(where: { $0.hasPrefix("onthemap: ") }),
                    let header = lines.firstIndex(where: Self.isHeader), first < header
                else {
                    Issue.record("no sentence, then a table \(shown)")
                    continue
                }
                let sentence = Array(lines[first..<header])
                for line in sentence { #expect(DisplayWidth.of(line) <= width, "a line wider than the pane \(shown)") }
                // Every word there, in order, and the command whole on one line.
                let said = sentence.joined(separator: " ")
                let match = said.wholeMatch(
                    of: /onthemap: ([0-9]+) students match "([^"]*)"; ([0-9]+) of them, newest first; (.*)/)
                #expect(match?.4 == "open one with `onthemap open N`:", "not the whole sentence \(shown)")
                #expect(sentence.contains { $0.contains("`onthemap open N`:") }, "the command broken \(shown)")
                guard let match else { continue }
                let quoted = String(match.2)
                if DisplayWidth.of("\"\(name)\";") <= width {
                    #expect(quoted == name, "the name shortened though it fits \(shown)")
                } else {
                    #expect(
                        quoted.hasSuffix("…") && name.hasPrefix(quoted.dropLast()), "the name not shortened \(shown)")
                    #expect(sentence.contains { $0.contains("\"\(quoted)\";") }, "the name broken \(shown)")
                }
                // Then the table, fitted as before.
                let table = lines[header...].prefix(1 + Int(match.3)!)
                #expect(
                    table.count == 1 + Int(match.3)! && table.allSatisfy { DisplayWidth.of($0) <= width },
                    "the table \(shown)")
            }
        }
    }
}
