import Foundation
import OnTheMapModels
import OnTheMapTestSupport
import Testing

/// `onthemap map` and `onthemap export`, through the real binary, daemon and server.
@Suite("onthemap map and export", .ownThreads)
struct MapCommandTests {
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

    @Test("On a terminal, the map keeps its height and stays on screen; only a short legend is shown")
    func onATerminalALongLegendIsLeftOut() throws {
        guard TmuxSession.isAvailable else {
            Issue.record("tmux is not installed (apt-get install tmux)")
            return
        }
        let bed = try CLITestBed()
        var environment = bed.environment
        environment["COLUMNS"] = nil
        environment["LANG"] = "C.UTF-8"
        let braille = { (line: String) in line.unicodeScalars.contains { (0x2800...0x28FF).contains($0.value) } }
        // The pane waits afterwards, as a shell's prompt would: its one line is the terminal's last.
        let world = try TmuxSession(
            command: "\(BuiltProducts.path("onthemap")) map; sleep 60", width: 100, height: 30, environment: environment)
        defer { world.tearDown() }
        var (ended, lines) = try world.waitForScreen { $0.contains { $0.contains("pins in view") } }
        #expect(ended, "\(lines.joined(separator: "\n"))")
        // 30 rows: 28 of map and the count; the hundred pins' legend would have scrolled the map away.
        #expect(lines.prefix(28).allSatisfy(braille), "\(lines.joined(separator: "\n"))")
        #expect(lines[28] == "100 pins in view; `onthemap map | less` lists them, `onthemap open N` opens one", "\(lines[28])")

        // A few pins: their legend, under a map shorter by as many lines.
        let near = try TmuxSession(
            command: "\(BuiltProducts.path("onthemap")) map --near -12.05,-77.04 --radius 100; sleep 60", width: 100, height: 30,
            environment: environment)
        defer { near.tearDown() }
        (ended, lines) = try near.waitForScreen { $0.contains { $0.contains("in view") } }
        #expect(ended, "\(lines.joined(separator: "\n"))")
        let countLine = try #require(lines.firstIndex { $0.contains("in view") })
        let inView = try #require(lines[countLine].firstMatch(of: /^([0-9]+) pins? in view; `onthemap open N`/).map { Int($0.1)! }, "\(lines[countLine])")
        #expect((1...5).contains(inView), "\(lines.joined(separator: "\n"))")
        #expect(countLine == 28 - inView)
        #expect(lines.prefix(countLine).allSatisfy(braille))
        #expect(lines[countLine + 1].hasPrefix("1  "), "\(lines[countLine + 1])")
        #expect(lines[countLine + inView].hasPrefix("\(inView)  "))
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
        let inView = try #require(sizedLines[12].firstMatch(of: /^([0-9]+) pins in view; `onthemap open N`/).map { Int($0.1)! })
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
        #expect(wide.stderr.contains("--width must be between 10 and 1000"))
        // A place, and one that is nowhere: the same error as `students --near`.
        let paris = try bed.run(["map", "--near", "Paris", "--radius", "300", "--json", "--width", "40", "--height", "10"])
        let view = try JSONDecoder().decode(WireJSON.self, from: Data(paris.stdout.utf8))["view"]
        #expect(view?["west"]?.doubleValue ?? 0 < 2.35 && view?["east"]?.doubleValue ?? 0 > 2.35)
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
        #expect(negative.stderr.contains("--radius must be between 0.1 and 20100 km"), "\(negative.stderr)")
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
        #expect(none.status == 64)
        #expect(none.stderr.contains("no table or map to pick from yet"), "\(none.stderr)")
        _ = try bed.run(["map", "--width", "80", "--height", "24"])
        let beyond = try bed.run(["open", "500"], extra: ["ONTHEMAP_OPENER": "/bin/echo"])
        #expect(beyond.status == 64)
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
