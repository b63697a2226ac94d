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
        // The terminal's size (COLUMNS and LINES stand in for one here), less two lines.
        let sized = try bed.run(["map"], extra: ["COLUMNS": "50", "LINES": "14", "LANG": "C.UTF-8"])
        #expect(sized.status == 0)
        #expect(sized.stdout.split(separator: "\n").prefix(12).allSatisfy { $0.unicodeScalars.count == 50 })
        #expect(sized.stdout.split(separator: "\n")[12].contains("pins in view"))
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
        #expect(try bed.run(["map", "--fit", "pins", "--near", "Paris"]).status == 64)
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
        #expect(unwritable.status == 64)
        #expect(unwritable.stderr.contains("cannot write /nonexistent/dir/map.svg"))
    }
}
