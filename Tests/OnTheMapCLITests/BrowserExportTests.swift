import Foundation
import OnTheMapModels
import OnTheMapTestSupport
import Testing

/// `onthemap export --html` opened in real headless Chromium with the network off, driven by Selenium
/// (Tests/Browser/export_map_check.py).
@Suite("onthemap export in Chromium", .ownThreads, .enabled(if: BrowserCheck.isAvailable, BrowserCheck.missing))
struct BrowserExportTests {
    @Test func markersPopupZoomAndSearchWorkOffline() throws {
        let bed = try CLITestBed()
        // Three students type one place (a city no demo student is in) and the offline geocoder gives
        // them the same coordinates; the last of them is you. A fourth is 14 km away: one cluster with
        // them at world zoom, a marker of its own closer in.
        let typed = "Trondheim, Norway"
        let others = [("Grace", "Hopper"), ("Alan", "Turing")]
        for (first, last) in others {
            let email = "\(first.lowercased())@onthemap.example"
            try bed.server.addUser(email: email, password: "password-\(first)", first: first, last: last)
            try post(typed, as: email, password: "password-\(first)", on: bed)
        }
        try bed.server.addUser(
            email: "katherine@onthemap.example", password: "password-Katherine", first: "Katherine", last: "Johnson")
        try post("Malvik, Norway", as: "katherine@onthemap.example", password: "password-Katherine", on: bed)
        try post(typed, as: "demo@onthemap.example", password: "onthemap-demo", on: bed)
        // The pins read as the geocoder names the place ("Trondheim, Trøndelag, Norway").
        let mine = try bed.run(["mypin", "--json"])
        let place = try WireCoding.decoder().decode(StudentLocation.self, from: Data(mine.stdout.utf8)).mapString
        #expect(place.hasPrefix("Trondheim, ") && place.hasSuffix(", Norway"), "\(place)")

        let page = bed.cacheHome.file("students.html")
        #expect(try bed.run(["export", "--html", page]).status == 0)
        // Kept after the test, for a person to look at.
        let artefacts = URL(fileURLWithPath: BrowserTools.artefacts)
        try FileManager.default.createDirectory(at: artefacts, withIntermediateDirectories: true)
        let screenshot = artefacts.appendingPathComponent("map-export.png").path
        let keptPage = artefacts.appendingPathComponent("map-export.html")
        try? FileManager.default.removeItem(at: keptPage)
        try FileManager.default.copyItem(at: URL(fileURLWithPath: page), to: keptPage)
        let names = others.map { "\($0) \($1)" } + ["Ada Lovelace"]
        let result = try runCommand(
            "/usr/bin/env",
            ["python3", BrowserCheck.script, page, "100", screenshot, place] + names
                + ["--nearby", "Katherine Johnson"])
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        for line in [
            "ok   100 students on 98 markers, 100 expected", "ok   a click opens the popup", "ok   searching \"",
            "ok   the shared marker shows 3", "ok   its popup lists all 3", "ok   searching \"\(place)\" finds them",
            "ok   a legend says which marker is you",
            "ok   \(place) and Katherine Johnson are one cluster at world zoom",
            "ok   hovering the cluster lists its", "ok   clicks on it zoom in",
            "ok   spreading two fingers from 80 to 320 px apart zooms in", "ok   a double click zooms in twice",
            "ok   every marker is a button", "ok   one marker or cluster, on the screen, is in the Tab order",
            "ok   Tab from the search box reaches the map's pins", "ok   an arrow key moves the focus to the next pin that way",
            "ok   Enter on a focused marker opens its popup, named for the student, with the focus in it",
            "ok   Escape closes it and puts the focus back on the marker",
            "ok   a cluster is a button too", "ok   after Enter zoomed into the cluster, the focus is on what it became",
            "ok   the first view names", "ok   the zoom-in button zooms in", "ok   the zoom-out button zooms out",
            "ok   the whole-world button shows the world's width", "ok   an empty search shows the first view again",
            "ok   1280x800: the map: axe-core finds no violation", "ok   1280x800, dark: the map: axe-core finds no violation",
            "ok   1280x800: a student's popup: axe-core finds no violation",
        ] + ["390x844", "844x390"].flatMap({ phone in
            [
                "ok   \(phone): the map: axe-core finds no violation",
                "ok   \(phone): the header is one line", "ok   \(phone): the map fills the screen under it",
                "ok   \(phone): the world fills the map, no letterboxing", "ok   \(phone): your pin is whole on the first view",
                "ok   \(phone): dragging reaches every student whole on the screen",
            ]
        }) {
            #expect(result.stdout.contains(line), "\(result.stdout)")
        }
        #expect(!result.stdout.contains("FAIL"), "\(result.stdout)")
        #expect(FileManager.default.fileExists(atPath: screenshot))
    }

    /// Logs in as `email` and posts a pin at `place`, through the real CLI.
    private func post(_ place: String, as email: String, password: String, on bed: CLITestBed) throws {
        let login = try bed.run(["login", "--force", "--username", email, "--password-stdin"], stdin: password + "\n")
        #expect(login.status == 0, "\(login.stderr)")
        let posted = try bed.run(["post", place, "https://\(email.prefix { $0 != "@" }).example", "--yes"])
        #expect(posted.status == 0, "\(posted.stderr)")
    }
}

/// The export's browser check, and whether Chromium, chromedriver and Selenium are here
/// (`BrowserTools`, shared with the server's web page tests).
enum BrowserCheck {
    static let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Browser/export_map_check.py").path

    static let missing = BrowserTools.missing

    static var isAvailable: Bool { BrowserTools.isAvailable }
}
