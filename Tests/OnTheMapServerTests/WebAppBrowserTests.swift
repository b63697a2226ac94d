import Foundation
import OnTheMapTestSupport
import Testing

/// The web page at `/` driven in real headless Chromium by Selenium (Tests/Browser/web_app_check.py),
/// against a real `onthemap-server` on a temp SQLite file: every screen and error at 1400×900 and on a
/// phone (390×844, 844×390, touch), hostile data, a revoked session, no request to another origin,
/// and the page's speed.
// One check at a time: each drives a Chromium of its own, and two side by side on two cores (ten
// thousand pins each) slowed both past their checks' waits.
@Suite(
    "The web page in Chromium", .ownThreads, .serialized, .enabled(if: BrowserTools.isAvailable, BrowserTools.missing),
    // The page speaks HTTP only: the PostgreSQL pass of `make test` would drive it again for nothing.
    .enabled(if: !TestDatabase.usesPostgres, "runs once, on SQLite: the page does not care which database serves it"))
struct WebAppBrowserTests {
    static let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Browser/web_app_check.py").path

    @Test func everyScreenAtBothSizes() throws {
        let fixture = try ServerFixture(arguments: [
            "--web-poll-seconds", "1", "--signup-url", "https://signup.onthemap.example/join", "--max-login-failures", "3",
        ])
        defer { fixture.tearDown() }
        try fixture.seedDemo(count: 150)
        try fixture.addUser(email: "grace@onthemap.example", password: "password-grace", first: "Grace", last: "Hopper")
        try fixture.addUser(email: "limited@onthemap.example", password: "password-limited", first: "Lim", last: "Ited")

        let result = try runCommand(
            "/usr/bin/env",
            ["python3", Self.script, Self.root(fixture), BrowserTools.artefacts, "--db", fixture.databasePath,
             "--server", BuiltProducts.path("onthemap-server")] + Self.judging,
            environment: ["SE_AVOID_STATS": "true"])
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        for line in [
            "ok   GET / answers the page", "ok   with Content-Security-Policy: default-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
            "ok   the page opens on the login screen", "ok   a wrong password says so",
            "ok   with the network down it says the server cannot be reached",
            "ok   the rate limit's wait in words: Too many login attempts. Try again in ",
            "ok   with the newest 100 pins", "ok   the page's student lists came gzipped",
            "ok   a click on a marker opens its popup", "ok   the wheel zooms in",
            "ok   dragging pans", "ok   searching \"", "ok   the list holds the same 100 pins, newest first",
            "ok   tapping a row opens its link in a new tab", "ok   a busy bar shows while a request runs",
            "ok   a pin posted elsewhere appears without a reload", "ok   quiet for 5 s:",
            "ok   Finish posts the pin as \"Springfield, Illinois, United States\"",
            "ok   each candidate is named exactly as /v1/geocode names it, and none twice", "ok   with a pin already there, Finish asks before replacing it",
            "ok   and then moves it (PUT)", "ok   Finish with the network down is an alert",
            "ok   once the server answers again, that alert goes by itself", "goes after Cancel", "goes after the server back",
            "ok   1400x900: nothing ran", "ok   390x844: nothing ran", "ok   390x844: the world fills the map, no letterboxing",
            "ok   844x390: the world fills the map, no letterboxing", "ok   390x844: spreading two fingers zooms in",
            "ok   390x844: panned east, New Zealand's pins are whole on the screen",
            "ok   390x844: list rows are at least 44 px tall", "ok   a revoked session returns to the login screen saying so",
            "ok   Log out returns to the login screen", "ok   the whole run: all",
            "ok   the page weighs",
            // Review 2, point 13: a place of 11,000 characters is cut at whole lines in its popup.
            "ok   1400x900: a very long place is cut at whole lines in its popup",
            "ok   390x844: a very long place is cut at whole lines in its popup",
            // Point 15: a row is a link; one whose link is refused says it opens nothing.
            "ok   1400x900: javascript: and data: links are text, in rows that say they open nothing",
            "ok   390x844: javascript: and data: links are text, in rows that say they open nothing",
        ] {
            #expect(result.stdout.contains(line), "missing: \(line)\n\(result.stdout)")
        }
        // Timed when the machine is calm enough to time anything (the check says so otherwise), and
        // judged against its target only with --judge-timings (ONTHEMAP_JUDGE_TIMINGS=1).
        #expect(
            ["ok   100 pins drawn", "time 100 pins drawn", "skip 100 pins drawn"].contains { result.stdout.contains($0) },
            "\(result.stdout)")
        #expect(!result.stdout.contains("FAIL"), "\(result.stdout)")
    }

    @Test func tenThousandPinsPanAndZoomWithoutALongFrame() throws {
        let fixture = try ServerFixture(arguments: ["--web-pins", "10000"])
        defer { fixture.tearDown() }
        try fixture.seedDemo(count: 10_000)
        let result = try runCommand(
            "/usr/bin/env",
            ["python3", Self.script, Self.root(fixture), BrowserTools.artefacts, "--db", fixture.databasePath,
             "--server", BuiltProducts.path("onthemap-server"), "--bench"] + Self.judging,
            environment: ["SE_AVOID_STATS": "true"])
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        #expect(result.stdout.contains("ok   10,000 pins on the map"), "\(result.stdout)")
        #expect(result.stdout.contains("ok   10,000 pins: what is in view is drawn"), "\(result.stdout)")
        if let skipped = result.stdout.split(separator: "\n").first(where: { $0.hasPrefix("skip ") }) {
            try Test.cancel("\(skipped.dropFirst(5)):\n\(result.stdout)")
        }
        for line in ["10,000 pins: 119 frames of pan", "10,000 pins: 79 frames of zoom"] {
            #expect(["ok   ", "time "].contains { result.stdout.contains($0 + line) }, "missing: \(line)\n\(result.stdout)")
        }
    }

    /// Issue 41, point 2: login, the map's pins, a popup (its Copy link), the tabs, the list, a link,
    /// posting and moving a pin, logging out, by the keyboard alone; axe-core on every screen, at both
    /// sizes, light and dark; with 240 and with 10,000 students (where every demo city is one cluster
    /// even at the closest zoom, and the lone pin opened is a third student's, found from the List).
    @Test(arguments: [240, 10_000]) func byTheKeyboardAloneWithAxeOnEveryScreen(students: Int) throws {
        let fixture = try ServerFixture(arguments: [
            "--web-poll-seconds", "1", "--web-pins", "\(students)", "--signup-url", "https://signup.onthemap.example/join",
        ])
        defer { fixture.tearDown() }
        try fixture.seedDemo(count: students)
        try fixture.addUser(email: "grace@onthemap.example", password: "password-grace", first: "Grace", last: "Hopper")
        let many = students > 1000
        if many {
            try fixture.addUser(email: "lin@onthemap.example", password: "password-lin", first: "Lone", last: "Student")
        }
        let result = try Self.check("web_keyboard_check.py", [Self.root(fixture), BrowserTools.artefacts, "--pins", "\(students)"])
        if many {
            for size in ["1400x900", "390x844"] {
                #expect(result.stdout.contains("ok   \(size): of \(students) students, the newest row's Map button shows its pin"),
                        "\(size)\n\(result.stdout)")
            }
        } else {
            // The clipboard's and the dark theme's own steps, which do not change with the count.
            for line in [
                "ok   1400x900, dark: the page is dark", "ok   390x844, dark: the page is dark",
                "ok   1400x900, dark: a wrong password says so", "ok   390x844, dark: a wrong password says so",
                "ok   1400x900, dark: Enter on a pin opens its popup", "ok   390x844, dark: Enter on a pin opens its popup",
                "ok   1400x900, dark: Post opens the form", "ok   390x844, dark: Post opens the form",
                "ok   1400x900, dark: a link with a space is refused in an alert",
                "ok   390x844, dark: a link with a space is refused in an alert",
                "ok   a pin's popup: Copy link is 1 Tab press(es) after the student's link",
                "ok   the toast's status region is there before a toast shows", "ok   Enter on it copies the pin's address",
                "ok   the popup stays open, the focus on Copy link, marked copied",
                "ok   pressed again, the toast's words are emptied and set again", "ok   1400x900: a pin's link copied: axe-core finds no violation",
                "ok   a clipboard refused is said in the alert, with the address",
                "ok   without a clipboard API, the address is copied all the same",
                "ok   and when that fails too, the alert says so and gives the address to copy by hand",
                "ok   the copied address opens that pin's popup after login",
            ] {
                #expect(result.stdout.contains(line), "missing: \(line)\n\(result.stdout)")
            }
            for screen in ["the login screen", "a login error", "the map", "a pin's popup", "the list", "the post form", "an alert"] {
                for size in ["1400x900", "390x844"] {
                    #expect(result.stdout.contains("ok   \(size), dark: \(screen): axe-core finds no violation"), "dark \(size): \(screen)")
                }
            }
        }
        for line in [
            "ok   1400x900: after login the focus is on the selected tab", "ok   1400x900: of \(students) students, one pin or cluster is a Tab stop",
            "ok   1400x900: the map: every Tab stop is on the screen", "ok   1400x900: Enter opens its popup",
            "ok   1400x900: Escape closes it and the focus is back on its pin", "ok   1400x900: an arrow key moves the focus to another pin",
            "ok   1400x900: ArrowRight on the Map tab selects and focuses the List tab", "ok   1400x900: Back returns to the map",
            "ok   1400x900: the list covers the map's buttons and count", "ok   390x844: the list covers the map's buttons and count",
            "ok   1400x900: End goes to the last row (\(students) of \(students))", "ok   1400x900: Enter on a row opens its link in a new tab",
            "ok   1400x900: Tab from a row reaches its Map button", "ok   1400x900: Enter on it shows",
            "ok   1400x900: Back returns to the list", "ok   390x844: Tab from a row reaches its Map button",
            "ok   390x844: Enter on it shows",
            "ok   1400x900: a search that matches nothing says so", "ok   1400x900: a link over 2,048 characters is refused at Find",
            "ok   1400x900: Finish posts the pin; its popup opens with the focus in it",
            "ok   1400x900: the question does not cover the place it asks about", "ok   1400x900: Replace it moves the pin",
            "ok   1400x900: Escape closes the form, the focus back on Post",
            "ok   1400x900: Log out returns to the login screen, the focus in Email, and the toast is gone",
            "ok   390x844: Finish posts the pin", "ok   390x844: the question does not cover the place it asks about",
            "ok   390x844: every control is at least 44 px a side",
            "ok   390x844: your pin or the cluster holding it is whole on the first view after login",
            "ok   a copied #/pin/ address opens that pin's popup after login", "ok   #/list opens its view",
            "ok   #/post opens its view", "ok   an address of a pin not on the map says so and shows the map",
            "ok   390x844: the post form: every Tab stop is on the screen", "ok   390x844: the popup is above the zoom buttons and the toast",
            "ok   390x844: pins and clusters are touch targets of at least 44 px", "ok   390x844: the popup's Close is at least 44 px a side",
            "ok   390x844: each link in the popup is at least 44 px a side", "ok   390x844: the login's Sign up link is at least 44 px a side",
            "ok   390x844: each Copy link in the popup is at least 44 px a side",
            "ok   1400x900: a pin opened from the post form leaves the form, as its address says",
            "ok   1400x900: after a click on the map, the arrows pan it twice, the focus left on it",
            "ok   1400x900: the rows are placed again when the screen's width changes their height",
            "ok   no errors in the console",
        ] {
            #expect(result.stdout.contains(line), "missing: \(line)\n\(result.stdout)")
        }
        for screen in ["the login screen", "a login error", "the map", "a pin's popup", "a cluster's popup", "the list",
                       "the list, nothing found", "the post form", "an alert", "the place found", "replace your pin?"] {
            for size in ["1400x900", "390x844"] {
                #expect(result.stdout.contains("ok   \(size): \(screen): axe-core finds no violation"), "\(size): \(screen)")
                // Each screen checked again as the device's dark setting shows it.
                #expect(result.stdout.contains("ok   \(size): \(screen) (dark): axe-core finds no violation"), "\(size): \(screen), dark")
            }
        }
        // A change elsewhere, Back and Forward, and clusters keep the focus where a person left it.
        for size in ["1400x900", "390x844"] {
            for line in [
                "Back closes the popup, the focus back on its pin", "Forward opens it again, the focus in it",
                "Forward from an open popup into #/list puts the focus on the List tab",
                "an unknown pin's address from an open popup shows the map", "another student's pin moves; the focus stays on the pin",
                "and again: the open popup stays open", "another student's pin moves to the top of the list; the focus stays on the row",
                "your row's name says you and when", "a search that leaves out your pin: the count does not name you",
                "#/pin/ of a student in a cluster of ", "the popup leaves its cluster in sight",
                "the popup of a cluster zooming cannot split names their place",
                "Escape puts the focus on its cluster, which zooming cannot split",
                "Enter on it opens its list, the focus in it", "Space on a row opens its link, the list left where it was",
                "a link with a port no connection uses is refused at Find, the focus on it", "Escape on the zoom buttons closes the popup",
                "Escape takes off the popup's entry, as Back would: Forward opens it again",
                "a wrong password from the Log in button says so, the focus back in the password",
                "the focused tab's ring is inside it, unlike its background",
                "a pin moved in place: its open popup says where it went",
                "and the rows are in the page in the order they are seen",
                "Find on a place that matches nothing says so, the focus back in Place",
                "and the post form's draft is gone with the session",
                // Review 2: a link with a space says so (9); a pin's popup left for a cluster takes its
                // address with it (10); a list row is a link to a screen reader (15).
                "a link with a space is refused at Find as having a space, the focus on it",
                "a pin's popup left for a cluster's list: the address leaves the pin",
                "and Forward opens the pin's popup again",
                "a pin's popup left for a cluster that zooms in",
                // The map itself holds the focus only while no pin is on the screen.
                "Down past the last pin pans; the focus goes on the screen",
                "Up pans back, and the focus is on a pin on the screen again (from the map)",
                "a row is a link (role link",
                // Reached by Tab, not focused by the script: Post, the tabs, the search, Log out.
                "from the map, Tab reaches Post", "from the map, Tab reaches the Map tab", "Left on the List tab shows the map",
                "Tab reaches the search", "Tab reaches Log out", "Tab reaches Cancel in the form",
                "Cancel closes the form, the focus back on Post",
                // A tester's round (audit6-web items 1-3): the place is what to change.
                "Enter in Link on a place that matches nothing puts the focus in Place",
                "a place with a control character is refused, named, the focus in Place",
                "the alert's \u{00d7} closes it, the focus back in Place",
                "Back from the List tab puts the focus on the Map tab",
                "a map search that matches no one says so in words",
                "the chosen place is two Shift+Tabs from Finish, and Down chooses the next",
            ] {
                #expect(result.stdout.contains("ok   \(size): \(line)"), "missing: \(size): \(line)\n\(result.stdout)")
            }
        }
    }

    /// Issue 41, points 3 and 6: installable (manifest, icons, service worker), the last map without the
    /// server (none after Log out), the banner while it is down, gone by itself once it is back; with
    /// 240 and with 10,000 students (ten pages kept). The check starts and stops the server itself, on
    /// the fixture's database.
    @Test(arguments: [240, 10_000]) func installableAndUsefulOffline(students: Int) throws {
        let fixture = try ServerFixture()
        defer { fixture.tearDown() }
        try fixture.seedDemo(count: students)
        try fixture.addUser(email: "grace@onthemap.example", password: "password-grace", first: "Grace", last: "Hopper")
        _ = fixture.stopServer()
        let pages = (students + 999) / 1000
        let result = try Self.check(
            "web_offline_check.py",
            [BrowserTools.artefacts, "--server", BuiltProducts.path("onthemap-server"), "--db", fixture.databasePath, "--pins", String(students)])
        for line in [
            "ok   the web app manifest is served", "ok   its icons, from the project's pin", "ok   the page's service worker runs",
            "ok   Chromium finds the page installable", "ok   it keeps the list seen", "ok   its \(pages) pages",
            "ok   Refresh, then Log out while the list loads: the login screen", "ok   the \(pages) page(s) asked for came",
            "ok   and never the session, a user, a place lookup or a pin's owner's query",
            "ok   the server stopped: the map stays, and a banner says so",
            "ok   the lookup's alert and the banner both show, apart",
            "ok   with the server down, Log out forgets the session here all the same",
            "ok   and the list kept for offline use", "ok   reloaded offline after Log out: the login screen alone, no map behind it",
            "ok   1400x900: the login screen, offline, after Log out: axe-core finds no violation",
            "ok   and says at once, with nothing typed, that the server cannot be reached, over the last map seen",
            "ok   reloaded without the server: the last map seen, offline since then",
            "ok   390x844, the browser offline, reloaded: the last map seen, offline since then",
            "ok   390x844: the last map, offline: axe-core finds no violation",
            "ok   the server back, the banner goes by itself", "ok   and a pin posted meanwhile shows without a Refresh",
            "ok   logging in says the server cannot be reached, over the last map seen",
            "ok   the server back, the login screen's banner and its sentence go by themselves",
            "ok   1400x900: the banner: axe-core finds no violation", "ok   390x844: the banner: axe-core finds no violation",
            "ok   1400x900: the login screen, offline: axe-core finds no violation",
            "ok   390x844: the login screen, offline: axe-core finds no violation",
        ] {
            #expect(result.stdout.contains(line), "missing: \(line)\n\(result.stdout)")
        }
    }

    /// Issue 41, points 1, 5 and 6, with 240 and with 10,000 students at both sizes: the map's names,
    /// clusters' counts and zoom buttons; the list drawn as it is seen, searched through an index,
    /// every row reached by the keyboard, axe-clean. Its timings are printed and judged only by
    /// scripts/bench-web.sh.
    @Test(arguments: [240, 10_000]) func theListAtScale(students: Int) throws {
        let fixture = try ServerFixture(arguments: ["--web-poll-seconds", "1", "--web-pins", String(students)])
        defer { fixture.tearDown() }
        try fixture.seedDemo(count: students)
        try fixture.addUser(email: "grace@onthemap.example", password: "password-grace", first: "Grace", last: "Hopper")
        let result = try Self.check("web_scale_check.py", [Self.root(fixture), BrowserTools.artefacts, "--pins", String(students)] + Self.judging)
        let count = students >= 1000 ? "\(students / 1000),\(String(students % 1000 + 1000).dropFirst())" : String(students)
        for size in ["1400x900", "390x844"] {
            for line in [
                "ok   \(size): the map's count: \(count) newest students", "ok   \(size): the map names",
                "ok   \(size): of \(students) students, one pin or cluster is a Tab stop: 1",
                "ok   \(size): #/pin/",
                "ok   \(size): every cluster's count", "ok   \(size): the zoom buttons zoom in and out",
                "ok   \(size): zoomed to Australia, its largest places are named",
                "ok   \(size): turned to",
                "ok   \(size): the list of \(students) shows its first rows", "ok   \(size): it says how many: \(count) students",
                "ok   \(size): the list opens again, all \(students) in it",
                "ok   \(size): End reaches row \(students) of \(students)", "ok   \(size): the list of \(students): axe-core finds no violation",
                "ok   \(size): a search that matches nothing says so", "ok   \(size): back on the map, the search leaves",
                "ok   \(size): a pin moved elsewhere: the popup stays open", "ok   \(size): a pin moved elsewhere: the focus stays on its row",
                // No pin or cluster under the zoom buttons or the count (New Zealand's was, at 1400x900).
                "ok   \(size): the first view: no pin or cluster under the zoom buttons or the count",
                // No cluster cut at the map's edge (Western Europe's, 2 pixels wide at 390x844).
                "ok   \(size): the first view: every cluster's disc whole on the map or off it, none under the zoom buttons",
                "ok   \(size): the whole world: no pin or cluster under the zoom buttons or the count",
            ] {
                #expect(result.stdout.contains(line), "missing: \(line)\n\(result.stdout)")
            }
        }
    }

    /// Runs a browser check (Tests/Browser/NAME) to its end; it must pass.
    static func check(_ name: String, _ arguments: [String]) throws -> CommandResult {
        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Browser/" + name).path
        let result = try runCommand("/usr/bin/env", ["python3", script] + arguments, environment: ["SE_AVOID_STATS": "true"])
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        #expect(!result.stdout.contains("FAIL"), "\(result.stdout)")
        return result
    }

    /// Timings judged against their targets: for a benchmark run on a quiet machine
    /// (`ONTHEMAP_JUDGE_TIMINGS=1`); the suite otherwise reports them without failing on a busy one.
    static var judging: [String] {
        ProcessInfo.processInfo.environment["ONTHEMAP_JUDGE_TIMINGS"] == "1" ? ["--judge-timings"] : []
    }

    /// The server's root, where the page is: its API URL without `v1`.
    static func root(_ fixture: ServerFixture) -> String {
        String(fixture.baseURL.dropLast("v1".count))
    }
}
