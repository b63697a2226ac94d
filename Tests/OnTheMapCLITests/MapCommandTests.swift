import Foundation
import OnTheMapModels
import OnTheMapRPC
import OnTheMapSupport
import OnTheMapTestSupport
import Testing

@testable import OnTheMapCLI

/// `onthemap map` and `onthemap export`, through the real binary, daemon and server.
@Suite("onthemap map and export", .ownThreads)
struct MapCommandTests {
    /// Counts of a thousand and more are grouped by three wherever a person reads them, as the
    /// editors and the web page write them; `--json` keeps the number.
    @Test func countsOfThousandsAreGrouped() throws {
        let bed = try CLITestBed(students: 1200, daemonArguments: ["--cache-size", "1100"])
        #expect(try bed.run(["refresh"]).stderr == "fetched the 1,100 newest students\n")
        /// The line under the map that `map` draws with `options`.
        func summary(_ options: [String]) throws -> String {
            let map = try bed.run(["map", "--width", "80", "--height", "24"] + options, extra: ["LANG": "C.UTF-8"])
            return map.stdout.split(separator: "\n").first { $0.contains("pins in view") }.map(String.init) ?? ""
        }
        let world = try summary([])
        #expect(world.firstMatch(of: /^1,[0-9]{3} pins in view/) != nil, "\(world)")
        // The daemon caches 1,100 of the server's 1,200: the map says it draws only those.
        #expect(world.contains(" (only the newest 1,100 students); `onthemap open N`"), "\(world)")
        // Around one city, most of them are outside the view, and so counted.
        let lima = try summary(["--near", "Lima, Peru", "--radius", "500"])
        #expect(lima.firstMatch(of: /, 1,[0-9]{3} outside it/) != nil, "\(lima)")
        #expect(try bed.run(["status"]).stdout.contains("students: 1,100 newest"))
        #expect(try bed.run(["status", "--format", "i3blocks"]).stdout.hasPrefix("📍 1,100"))
        #expect(try bed.run(["status", "--json"]).stdout.contains(#""count":1100"#))
    }

    @Test func aMapWithItsLegend() throws {
        let bed = try CLITestBed()
        let result = try bed.run(["map", "--width", "80", "--height", "24"], extra: ["LANG": "C.UTF-8"])
        #expect(result.status == 0, "\(result.stderr)")
        let lines = result.stdout.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let map = Array(lines.prefix(24))
        #expect(map.allSatisfy { $0.unicodeScalars.count == 80 })
        #expect(map.joined().unicodeScalars.contains { (0x2801...0x28FF).contains($0.value) }, "braille on a UTF-8 locale")
        #expect(!result.stdout.contains("\u{1B}["), "no colour off a terminal")
        #expect(lines[24].hasPrefix("100 pins in view"))
        // The legend: one numbered line per pin, in order.
        let legend = lines.dropFirst(25).filter { !$0.isEmpty }
        #expect(legend.count == 100)
        #expect(legend.first?.hasPrefix("  1  ") == true)
        #expect(legend.last?.hasPrefix("100  ") == true)

        // `open N` opens pin N of that map.
        let json = try bed.run(["map", "--width", "80", "--height", "24", "--json"])
        let pins = try JSONDecoder().decode(WireJSON.self, from: Data(json.stdout.utf8))["pins"]
        guard case .array(let elements)? = pins else {
            Issue.record("no pins in \(json.stdout.prefix(200))")
            return
        }
        _ = try bed.run(["map", "--width", "80", "--height", "24"])
        let opened = try bed.run(["open", "7"], extra: ["ONTHEMAP_OPENER": "/bin/echo"])
        #expect(opened.status == 0)
        #expect(opened.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == elements[6]["mediaURL"]?.stringValue)
    }

    @Test("On a terminal the map stays on screen and the legend always shows: shortened, saying how many more")
    func onATerminalTheLegendIsShortened() throws {
        guard let bed = try CLITestBed.forPane() else { return }
        let environment = bed.paneEnvironment
        let braille = { (line: String) in line.unicodeScalars.contains { (0x2800...0x28FF).contains($0.value) } }
        // The pane waits afterwards, as a shell's prompt would: its one line is the terminal's last.
        let world = try TmuxSession(
            command: "\(BuiltProducts.path("onthemap")) map; sleep 60", width: 100, height: 30, environment: environment)
        defer { world.tearDown() }
        var (ended, lines) = try world.waitForScreen { $0.contains { $0.hasPrefix("legend: ") } }
        #expect(ended, "\(lines.joined(separator: "\n"))")
        // 30 rows: a fifth (6) for the legend, so 22 of map, the count, 5 pins and how many more.
        #expect(lines.prefix(22).allSatisfy(braille), "\(lines.joined(separator: "\n"))")
        // The count line fits the terminal's width (wrapped, it would push the map's top off the screen).
        let counted = try #require(lines[22].firstMatch(of: /^([0-9]+) pins in view(, ([0-9]+) outside it)?/), "\(lines[22])")
        let worldInView = Int(counted.1)!
        #expect(worldInView + (counted.3.flatMap { Int($0) } ?? 0) == 100)
        #expect(worldInView >= 90)
        #expect(lines[22].count <= 100 && lines[21].count <= 100)
        for number in 1...5 { #expect(lines[22 + number].hasPrefix("\(number)  "), "\(lines[22 + number])") }
        #expect(lines[28] == "legend: \(worldInView - 5) more (`onthemap map | less` lists them all)", "\(lines[28])")
        // `open N` reaches every pin of that map, not only the five listed.
        let opened = try bed.run(["open", String(worldInView)], extra: ["ONTHEMAP_OPENER": "/bin/echo"])
        #expect(opened.status == 0, "\(opened.stderr)")

        // 40 columns: the line saying how many more fits too ("legend: 95 more (`onthemap map | less`
        // lists them all)" is 54 columns; wrapped, it pushed the map's top off the screen).
        let narrow = try TmuxSession(
            command: "\(BuiltProducts.path("onthemap")) map; sleep 60", width: 40, height: 30, environment: environment)
        defer { narrow.tearDown() }
        (ended, lines) = try narrow.waitForScreen { $0.contains { $0.contains("`onthemap map | less`") } }
        #expect(ended, "\(lines.joined(separator: "\n"))")
        #expect(lines.prefix(22).allSatisfy(braille), "the map's top is off the screen:\n\(lines.joined(separator: "\n"))")
        #expect(
            lines[28].wholeMatch(of: /legend: [0-9]+ more: `onthemap map \| less`/) != nil,
            "\(lines.joined(separator: "\n"))")
        // Lines the terminal wrapped, joined again: a screen's rows are never wider than the pane.
        let joined = try NarrowTableTests.joinedLines(of: narrow)
        #expect(joined.allSatisfy { DisplayWidth.of($0) <= 40 }, "\(joined.joined(separator: "\n"))")
        // A link shows with 20 cells or not at all: names and places before "https://www.link…".
        #expect(!lines.contains { $0.contains("https://") }, "\(lines.joined(separator: "\n"))")

        // A few pins: their whole legend, under a map shorter by as many lines.
        let near = try TmuxSession(
            command: "\(BuiltProducts.path("onthemap")) map --near -12.05,-77.04 --radius 100; printf ENDED; sleep 60",
            width: 100, height: 30, environment: environment)
        defer { near.tearDown() }
        // Once the command has ended, all it printed is on the screen (the count line came before the
        // rows under it); `printf`, with no newline, leaves the screen where it was.
        (ended, lines) = try near.waitForScreen { $0.contains { $0.hasPrefix("ENDED") } }
        #expect(ended, "\(lines.joined(separator: "\n"))")
        let countLine = try #require(lines.firstIndex { $0.contains("in view") })
        let inView = try #require(lines[countLine].firstMatch(of: /^([0-9]+) pins? in view/).map { Int($0.1)! }, "\(lines[countLine])")
        #expect((1...5).contains(inView), "\(lines.joined(separator: "\n"))")
        #expect(countLine == 28 - inView)
        #expect(lines.prefix(countLine).allSatisfy(braille))
        #expect(lines[countLine + 1].hasPrefix("1  "), "\(lines[countLine + 1])")
        #expect(lines[countLine + inView].hasPrefix("\(inView)  "))
        #expect(!lines.contains { $0.hasPrefix("legend: ") })

        // 60×12: the legend is one line, so the map keeps 9 of the 10 rows it can have.
        let small = try TmuxSession(
            command: "\(BuiltProducts.path("onthemap")) map; sleep 60", width: 60, height: 12, environment: environment)
        defer { small.tearDown() }
        (ended, lines) = try small.waitForScreen { $0.contains { $0.hasPrefix("legend: ") } }
        #expect(ended, "\(lines.joined(separator: "\n"))")
        #expect(lines.prefix(9).allSatisfy(braille), "\(lines.joined(separator: "\n"))")
        #expect(lines[9].contains("pins in view") && lines[9].count <= 60, "\(lines[9])")
        #expect(lines[10].firstMatch(of: /^legend: [0-9]+ pins \(`onthemap map \| less` lists them all\)$/) != nil, "\(lines[10])")
    }

    @Test("At 120×40, 60×12 and 80×24, in colour and ASCII: names, numbered pins, the legend, a cut world said")
    func mapsAtTheSizesPeopleUse() throws {
        let bed = try CLITestBed()
        // Piped, the whole legend follows; the names are drawn in their own style.
        let wide = try bed.run(["map", "--width", "120", "--height", "40", "--json"])
        let result = try MapResult(json: try JSONDecoder().decode(WireJSON.self, from: Data(wide.stdout.utf8)))
        #expect(result.styles.joined().contains("n"), "names on the world")
        #expect(result.rows.joined().contains("Brazil") || result.rows.joined().contains("Russia"))
        #expect(result.outside + result.pins.count == 100)
        // A pin alone in its cell is followed by its number where there is room.
        let numbered = result.pins.compactMap(\.cell).filter { placed in
            let row = Array(result.rows[placed.row].unicodeScalars)
            let digits = Array(String(placed.n).unicodeScalars)
            return placed.col + digits.count < row.count && Array(row[(placed.col + 1)...(placed.col + digits.count)]) == digits
        }
        #expect(numbered.count >= 10, "\(numbered.count) pins show their number")
        let plain = try bed.run(["map", "--width", "120", "--height", "40", "--no-labels", "--json"])
        let plainResult = try MapResult(json: try JSONDecoder().decode(WireJSON.self, from: Data(plain.stdout.utf8)))
        #expect(!plainResult.styles.joined().contains("n"), "--no-labels draws no names")
        #expect(!plainResult.rows.joined().contains("Brazil") && !plainResult.rows.joined().contains("Russia"))

        // 60×12 in ASCII: the world cut to fit says so, and how many pins it leaves out.
        let small = try bed.run(["map", "--width", "60", "--height", "12", "--ascii"], extra: ["LANG": "C.UTF-8"])
        #expect(small.status == 0, "\(small.stderr)")
        let lines = small.stdout.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        #expect(lines.prefix(12).allSatisfy { $0.utf8.count == 60 && $0.utf8.allSatisfy { $0 < 0x80 } })
        let count = try #require(lines[12].firstMatch(of: /^([0-9]+) pins in view, ([0-9]+) outside it \(the world is cut at ([0-9]+)°N and ([0-9]+)°S: a larger --height shows more\)/), "\(lines[12])")
        #expect(Int(count.1)! + Int(count.2)! == 100)
        // Few kinds of character, so the coasts read as lines: no more than 8 besides names and pins.
        let map = lines.prefix(12).joined()
        let glyphs = Set(map.filter { !$0.isLetter && !$0.isNumber && $0 != "*" && $0 != "+" && $0 != "@" })
        #expect(glyphs.count <= 8, "\(glyphs.sorted())\n\(lines.prefix(12).joined(separator: "\n"))")

        // In colour on a terminal: names dim (SGR 2), pins red and bold.
        guard TmuxSession.isAvailable else { return }
        var environment = bed.paneEnvironment
        // Empty is colour on, whatever the tmux server inherited.
        environment["NO_COLOR"] = ""
        let tmux = try TmuxSession(command: "\(BuiltProducts.path("onthemap")) map; sleep 60", width: 80, height: 24, environment: environment)
        defer { tmux.tearDown() }
        let (ended, _) = try tmux.waitForScreen { $0.contains { $0.hasPrefix("legend: ") } }
        #expect(ended)
        // tmux writes each attribute as its own escape ("\e[1m\e[31m*"): read the cells' attributes.
        let cells = TmuxSession.attributedCells(try tmux.tmux(["capture-pane", "-p", "-e", "-t", "0"]))
        #expect(cells.contains { $0.character.isUppercase && $0.attributes.contains("2") }, "a dim name")
        #expect(cells.contains { $0.character == "*" && $0.attributes.isSuperset(of: ["1", "31"]) }, "a red pin")
    }

    /// A wide terminal without colour, through the CLI: countries by their names and only where drawn
    /// large enough ("Australia", never "Auz."; no "Saint Pierre and Miquelon" on a dot of land), and
    /// every number on the map is one pin's or one group's, never two run together ("324422").
    @Test(
        "Wide maps without colour: large countries named in full, tiny ones not, numbers apart",
        arguments: [(200, 60), (300, 80)])
    func wideMapsWithoutColour(width: Int, height: Int) throws {
        let bed = try CLITestBed()
        let size = ["map", "--width", String(width), "--height", String(height)]
        let shown = try bed.run(size, extra: ["NO_COLOR": "1", "LANG": "C.UTF-8"])
        #expect(shown.status == 0, "\(shown.stderr)")
        let rows = shown.stdout.split(separator: "\n", omittingEmptySubsequences: false).prefix(height)
            .map { Array($0) }
        let map = rows.map { String($0) }.joined(separator: "\n")
        #expect(map.contains("Australia"), "\(map)")
        let tinyOnes = ["Saint Pierre and Miquelon", "St. Pierre", "South Georgia", "S. Geo.", "Pitcairn", "Niue", "Cook Islands"]
        for tiny in ["Auz."] + tinyOnes {
            #expect(!map.contains(tiny), "\(tiny) named at \(width)×\(height)")
        }
        // Where each pin is, from the same map as JSON.
        let json = try WireCoding.decode(WireJSON.self, from: Array(try bed.run(size + ["--json"]).stdout.utf8))
        guard case .array(let pins)? = json["pins"] else {
            Issue.record("no pins in the map's JSON")
            return
        }
        var numbered: [[Int]: Int] = [:]
        var grouped: [[Int]: Int] = [:]
        for pin in pins {
            guard let row = pin["row"]?.intValue, let col = pin["col"]?.intValue, let n = pin["n"]?.intValue
            else { continue }
            numbered[[row, col]] = n
            grouped[[row, col], default: 0] += 1
        }
        #expect(grouped.values.contains { $0 > 1 }, "no group to look at: \(grouped.count) cells")
        // A run of digits after a pin ("*" or your "@") is that pin's number; any other is the count
        // of the group in its first cell.
        var runs = 0
        for (row, cells) in rows.enumerated() {
            var col = 0
            while col < cells.count {
                guard cells[col].isASCII, cells[col].isNumber else {
                    col += 1
                    continue
                }
                var end = col
                while end < cells.count, cells[end].isASCII, cells[end].isNumber { end += 1 }
                let number = Int(String(cells[col..<end]))
                if col > 0, cells[col - 1] == "*" || cells[col - 1] == "@" {
                    #expect(
                        grouped[[row, col - 1]] == 1 && numbered[[row, col - 1]] == number,
                        "row \(row), column \(col): \(String(cells))")
                } else {
                    #expect(
                        grouped[[row, col]] == number, "row \(row), column \(col) reads \(number ?? 0): \(String(cells))")
                }
                runs += 1
                col = end
            }
        }
        #expect(runs >= 10, "\(map)")
    }

    @Test func asciiWhenTheLocaleIsNotUTF8() throws {
        let bed = try CLITestBed()
        for (environment, arguments) in [(["LANG": "C", "LC_ALL": ""], [String]()), (["LANG": "C.UTF-8"], ["--ascii"])] {
            let result = try bed.run(["map", "--width", "60", "--height", "12"] + arguments, extra: environment)
            #expect(result.status == 0)
            let map = result.stdout.split(separator: "\n").prefix(12)
            #expect(map.allSatisfy { $0.utf8.count == 60 && $0.utf8.allSatisfy { $0 < 0x80 } }, "\(environment) \(arguments)")
        }
    }

    @Test func sizesAndPlaces() throws {
        let bed = try CLITestBed()
        // The terminal's size (COLUMNS and LINES stand in for one here), less two lines; piped, the
        // whole legend follows (only on a terminal is a long one left out).
        let sized = try bed.run(["map"], extra: ["COLUMNS": "50", "LINES": "14", "LANG": "C.UTF-8"])
        #expect(sized.status == 0)
        let sizedLines = sized.stdout.split(separator: "\n").map(String.init)
        #expect(sizedLines.prefix(12).allSatisfy { $0.unicodeScalars.count == 50 })
        let inView = try #require(sizedLines[12].firstMatch(of: /^([0-9]+) pins in view/).map { Int($0.1)! })
        // Said in short within the 50 columns.
        #expect(sizedLines[12].contains("cut at"), "\(sizedLines[12])")
        #expect(sizedLines[12].count <= 50, "\(sizedLines[12])")
        #expect(sizedLines.count == 13 + inView)
        // Too small: one line saying so.
        let small = try bed.run(["map"], extra: ["COLUMNS": "8", "LINES": "30"])
        #expect(small.status == 64)
        #expect(small.stdout.isEmpty)
        #expect(small.stderr.split(separator: "\n").count == 1)
        #expect(small.stderr.contains("too small"))
        // Limits are named.
        let wide = try bed.run(["map", "--width", "1001"])
        #expect(wide.status == 64)
        #expect(wide.stderr.contains("--width must be from 10 to 1000."))
        // A place, and one that is nowhere: the same error as `students --near`.
        let paris = try bed.run(["map", "--near", "Paris", "--radius", "300", "--json", "--width", "40", "--height", "10"])
        let parisMap = try MapResult(json: try JSONDecoder().decode(WireJSON.self, from: Data(paris.stdout.utf8)))
        #expect(parisMap.view.west < 2.35 && parisMap.view.east > 2.35)
        // The place as `geocode` names it.
        #expect(parisMap.near?.hasPrefix("Paris, ") == true && parisMap.near?.hasSuffix(", France") == true, "\(parisMap.near as Any)")
        #expect(parisMap.view.place == parisMap.near, "the centre named by the one rule")
        // Continents and oceans are places: the whole of Europe is in view.
        let europe = try bed.run(["map", "--near", "Europe", "--width", "80", "--height", "24"], extra: ["LANG": "C.UTF-8"])
        #expect(europe.status == 0, "\(europe.stderr)")
        #expect(europe.stdout.contains("around Europe"), "\(europe.stdout.suffix(300))")
        let europeMap = try MapResult(json: try JSONDecoder().decode(
            WireJSON.self, from: Data(try bed.run(["map", "--near", "Europe", "--json"]).stdout.utf8)))
        #expect(europeMap.view.west < -9 && europeMap.view.east > 30 && europeMap.view.north > 60 && europeMap.view.south < 37)
        let nowhere = try bed.run(["map", "--near", "Xyzzyville Qwrtp"])
        let students = try bed.run(["students", "--near", "Xyzzyville Qwrtp"])
        #expect(nowhere.status == 1)
        #expect(nowhere.status == students.status)
        #expect(nowhere.stderr == students.stderr)
        #expect(nowhere.stderr == "onthemap: no place matches \"Xyzzyville Qwrtp\": try \"City, Country\" or LAT,LON\n")
        #expect(try bed.run(["map", "--fit", "pins", "--near", "Paris"]).status == 64)
        // Coordinates south and west start with "-", also after "=", and a negative radius is a
        // range error (it read as a missing value); two numbers out of range are a typo, not a place.
        for near in [["--near", "-12.05,-77.04"], ["--near=-12.05,-77.04"]] {
            let lima = try bed.run(["map"] + near + ["--radius", "300", "--json", "--width", "40", "--height", "10"])
            #expect(lima.status == 0, "\(near): \(lima.stderr)")
        }
        let negative = try bed.run(["map", "--near", "Lima", "--radius", "-5"])
        #expect(negative.status == 64)
        #expect(negative.stderr.contains("--radius must be from 0.1 to 20100 km."), "\(negative.stderr)")
        for command in ["map", "students"] {
            let typo = try bed.run([command, "--near", "95,200"])
            #expect(typo.status == 64)
            #expect(typo.stderr.contains("--near: latitude 95 is out of range: it goes from -90 to 90"), "\(typo.stderr)")
        }
        let daemon = try bed.run(["call", "map", #"{"near":"45,-200","width":20,"height":10}"#])
        #expect(daemon.stderr.contains("longitude -200 is out of range"), "\(daemon.stdout)\(daemon.stderr)")
    }

    @Test("open N names the rows there are, or says there is no table yet")
    func openSaysWhichRowsThereAre() throws {
        let bed = try CLITestBed()
        let none = try bed.run(["open", "1"], extra: ["ONTHEMAP_OPENER": "/bin/echo"])
        #expect(none.status == 1)
        #expect(none.stderr.contains("no table or map to pick from yet"), "\(none.stderr)")
        _ = try bed.run(["map", "--width", "80", "--height", "24"])
        let beyond = try bed.run(["open", "500"], extra: ["ONTHEMAP_OPENER": "/bin/echo"])
        #expect(beyond.status == 1)
        #expect(beyond.stderr.contains("no row 500: the last table or map has rows 1 to 100"), "\(beyond.stderr)")
    }

    @Test func exportWritesOneSelfContainedFile() throws {
        let bed = try CLITestBed()
        let html = bed.cacheHome.file("students.html")
        let written = try bed.run(["export", "--html", html])
        #expect(written.status == 0, "\(written.stderr)")
        #expect(written.stderr.contains("100 students"))
        let page = try String(contentsOfFile: html, encoding: .utf8)
        #expect(page.components(separatedBy: "data-object-id=").count - 1 == 100)
        let svg = try bed.run(["export", "--svg", "-"])
        #expect(svg.stdout.hasPrefix("<?xml"))
        #expect(svg.stdout.components(separatedBy: "data-object-id=").count - 1 == 100)
        #expect(try bed.run(["export"]).status == 64)
        let unwritable = try bed.run(["export", "--svg", "/nonexistent/dir/map.svg"])
        #expect(unwritable.status == 1, "a failure, not a usage error")
        #expect(unwritable.stderr.contains("cannot write /nonexistent/dir/map.svg"))
    }
}
