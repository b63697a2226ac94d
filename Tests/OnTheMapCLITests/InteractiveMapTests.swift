import Foundation
import OnTheMapClient
import OnTheMapModels
import OnTheMapTestSupport
import Testing

@testable import OnTheMapCLI

/// `onthemap map -i` in a real terminal (tmux), against the real daemon and server.
@Suite("onthemap map -i under tmux", .ownThreads, .enabled(if: TmuxSession.isAvailable, "tmux is not installed (apt-get install tmux)"))
struct InteractiveMapTests {
    /// Runs `onthemap map -i` in a pane; afterwards the pane prints the exit status and the
    /// terminal's settings, so a test can see they were restored.
    private func start(
        _ bed: CLITestBed, width: Int = 100, height: Int = 30, colour: Bool = false,
        opener script: String? = nil
    ) throws -> TmuxSession {
        let opener = bed.cacheHome.file("opener.sh")
        let draft = bed.cacheHome.file("opener.txt")
        let body = script ?? "echo \"$1\" >> \(bed.cacheHome.file("opened.txt"))"
        try "#!/bin/sh\n\(body)\n".write(toFile: draft, atomically: true, encoding: .utf8)
        // The script that is run is written by a child process: a descriptor this process opened for
        // writing can be inherited by a process another test forks meanwhile, and running the script
        // then fails with ETXTBSY ("text file busy") for as long as that process lives.
        let installed = try runCommand("/usr/bin/install", ["-m", "755", draft, opener])
        guard installed.status == 0 else { throw ServerProcessError(message: "install: \(installed.stderr)") }
        var environment = bed.environment
        environment["COLUMNS"] = nil
        environment["LANG"] = "C.UTF-8"
        // Without colour your own pin is "@" even in a cell it shares (with colour, the cell's count
        // in your colour, which a captured pane does not show).
        // Empty is colour on, whatever the tmux server inherited.
        environment["NO_COLOR"] = colour ? "" : "1"
        environment["ONTHEMAP_OPENER"] = opener
        let command = "\(BuiltProducts.path("onthemap")) map -i; code=$?; stty -a > \(bed.cacheHome.file("stty.txt")); echo EXITED=$code; echo DONE"
        return try TmuxSession(command: command, width: width, height: height, environment: environment)
    }

    /// The zoom the status line shows, when it shows one.
    private func zoom(_ lines: [String]) -> Double? {
        (status(lines).firstMatch(of: /(?:pins?|outside) · zoom ([0-9.]+)( \(closest\))? ·/)?.1).flatMap { Double($0) }
    }

    private func status(_ lines: [String]) -> String {
        lines.last { !$0.trimmingCharacters(in: .whitespaces).isEmpty } ?? ""
    }

    /// The screen's text as a shell reads it pasted: a line ending in `\` goes on with the next.
    private func shownCommand(_ lines: [String]) -> String {
        lines.map { $0.trimmingCharacters(in: .whitespaces) }.joined(separator: "\n")
            .replacingOccurrences(of: " \\\n", with: " ").replacingOccurrences(of: "\\\n", with: "")
    }

    /// After the program ended: its exit status, and whether the terminal is back to normal.
    private func expectRestored(_ tmux: TmuxSession, _ sttyFile: String, exit: Int, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let (ended, _) = try tmux.waitForScreen { $0.contains("DONE") }
        let lines = try tmux.screen(history: true)
        #expect(ended, "\(lines.joined(separator: "\n"))", sourceLocation: sourceLocation)
        #expect(lines.contains("EXITED=\(exit)"), "\(lines.joined(separator: "\n"))", sourceLocation: sourceLocation)
        // Raw mode would show -icanon -echo -isig.
        let stty = Set(((try? String(contentsOfFile: sttyFile, encoding: .utf8)) ?? "").split(whereSeparator: { " ;\n".contains($0) }).map(String.init))
        #expect(stty.isSuperset(of: ["icanon", "echo", "isig", "icrnl"]), "\(stty.sorted())", sourceLocation: sourceLocation)
        #expect(try tmux.display("#{alternate_on}") == "0", "left the alternate screen", sourceLocation: sourceLocation)
    }

    @Test func keysPanZoomPickOpenAndJump() throws {
        let bed = try CLITestBed()
        let tmux = try start(bed)
        defer { tmux.tearDown() }
        var (shown, lines) = try tmux.waitForScreen { $0.last { !$0.isEmpty }?.contains("pins · zoom 1 ·") == true }
        #expect(shown, "\(lines.joined(separator: "\n"))")
        #expect(try tmux.display("#{alternate_on}") == "1")
        #expect(lines.prefix(29).joined().unicodeScalars.contains { (0x2801...0x28FF).contains($0.value) })

        // n and Tab pick pins: the status line names them.
        try tmux.send("n")
        (shown, lines) = try tmux.waitForScreen { self.status($0).hasPrefix("1/100  ") }
        #expect(shown, "\(status(lines))")
        try tmux.send("Tab")
        (shown, lines) = try tmux.waitForScreen { self.status($0).hasPrefix("2/100  ") }
        #expect(shown, "\(status(lines))")
        let link = status(lines).components(separatedBy: " — ").last ?? ""
        #expect(link.hasPrefix("http"))
        let picked = status(lines).components(separatedBy: " — ").first?.dropFirst("2/100  ".count) ?? ""

        // Enter opens the picked pin's link.
        try tmux.send("Enter")
        let opened = bed.cacheHome.file("opened.txt")
        (shown, lines) = try tmux.waitForScreen { _ in ((try? String(contentsOfFile: opened, encoding: .utf8)) ?? "").contains("\n") }
        #expect(try String(contentsOfFile: opened, encoding: .utf8) == link + "\n")

        // With a pin picked, + zooms around it: it stays in view and picked ("1/10  Name — …", the
        // number out of the pins now in view). Zoomed around the centre, it would leave the view.
        #expect(!picked.isEmpty)
        try tmux.send("+", "+", "+")
        (shown, lines) = try tmux.waitForScreen { self.status($0).contains(#/^[0-9]+/[0-9]+  /#) && !self.status($0).contains("/100  ") }
        #expect(shown && status(lines).contains("  \(picked) — "), "\(picked) is no longer picked: \(status(lines))")
        try tmux.send("Escape")
        (shown, lines) = try tmux.waitForScreen { self.zoom($0) == 8 }
        #expect(shown, "\(status(lines))")
        // w shows the whole world again; its status line says so (its centre is no place), and q quit
        // first.
        try tmux.send("Escape", "w")
        (shown, lines) = try tmux.waitForScreen { self.zoom($0) == 1 }
        // The demo server has more students than the daemon caches: the map says it draws the newest.
        #expect(status(lines).contains("zoom 1 · the whole world · newest 100 only · q quit  "), "\(status(lines))")

        // r refreshes and says so, until the next key (the refresh's own redraw keeps it).
        try tmux.send("r")
        (shown, lines) = try tmux.waitForScreen { self.status($0).contains(/^refreshed: [0-9]+ students/) }
        #expect(shown, "\(status(lines))")
        Thread.sleep(forTimeInterval: 1)
        #expect(status(try tmux.screen()).contains(/^refreshed: [0-9]+ students/))

        // Escape drops the pick; + zooms in, arrows pan.
        try tmux.send("Escape")
        try tmux.send("+")
        (shown, lines) = try tmux.waitForScreen { self.zoom($0) == 2 }
        #expect(shown, "\(status(lines))")
        let before = lines.prefix(29)
        try tmux.send("Right")
        (shown, lines) = try tmux.waitForScreen { $0.prefix(29) != before }
        #expect(shown, "panning redraws the map")

        // Coordinates go straight there; out of range, the message says so.
        try tmux.send("/", "-33.9,151.2", "Enter")
        (shown, lines) = try tmux.waitForScreen { self.status($0).hasPrefix("→ -33.9, 151.2") }
        #expect(shown, "\(status(lines))")
        try tmux.send("Escape")
        // The status line names the place at the centre.
        (shown, lines) = try tmux.waitForScreen { self.status($0).contains("Sydney, New South Wales, Australia") }
        #expect(shown, "\(status(lines))")
        try tmux.send("/", "95,10", "Enter")
        (shown, lines) = try tmux.waitForScreen { self.status($0).hasPrefix("latitude 95 is out of range") }
        #expect(shown, "\(status(lines))")
        // / jumps to a place, and says which it found; one that is nowhere says so and keeps the map.
        try tmux.send("/")
        try tmux.send("Berlin")
        try tmux.send("Enter")
        (shown, lines) = try tmux.waitForScreen { self.status($0).hasPrefix("→ Berlin, ") }
        #expect(shown, "\(status(lines))")
        try tmux.send("Escape")
        (shown, lines) = try tmux.waitForScreen { self.zoom($0).map { $0 > 8 } == true }
        #expect(shown, "\(status(lines))")
        try tmux.send("/", "Xyzzyville Qwrtp", "Enter")
        (shown, lines) = try tmux.waitForScreen { self.status($0).contains(#"no place matches "Xyzzyville Qwrtp": try "City, Country""#) }
        #expect(shown, "\(lines.joined(separator: "\n"))")

        // New students (here: the user's own pin near Berlin) redraw the map by themselves.
        #expect(!lines.prefix(29).joined().contains("@"))
        let connection = try RPCConnection(path: bed.daemon.socketPath)
        _ = try connection.call("postPin", params: .object([
            ("mapString", .string("Berlin")), ("mediaURL", .string("https://ada.example")),
            ("latitude", .number(52.52)), ("longitude", .number(13.40)),
        ])).get()
        (shown, lines) = try tmux.waitForScreen { $0.prefix(29).joined().contains("@") }
        #expect(shown, "your new pin appears without a key")

        // A message stays until a key (the redraw for the new pin kept it); a resize redraws at the
        // new size.
        #expect(status(lines).hasPrefix("no place matches"))
        try tmux.send("Escape")
        try tmux.tmux(["resize-window", "-t", "0", "-x", "70", "-y", "20"])
        (shown, lines) = try tmux.waitForScreen { lines in
            lines.count >= 20 && self.status(lines).contains("pins") && lines.prefix(19).allSatisfy { $0.unicodeScalars.count <= 70 }
                && lines.prefix(19).contains { $0.unicodeScalars.count == 70 }
        }
        #expect(shown, "\(lines.joined(separator: "\n"))")

        try tmux.send("q")
        try expectRestored(tmux, bed.cacheHome.file("stty.txt"), exit: 0)
    }

    @Test func theTerminalIsAlwaysRestored() throws {
        let bed = try CLITestBed()
        let ready: ([String]) -> Bool = { $0.last { !$0.isEmpty }?.contains("pins · zoom") == true }

        // Ctrl-C.
        var tmux = try start(bed)
        #expect(try tmux.waitForScreen(ready).0)
        try tmux.send("C-c")
        try expectRestored(tmux, bed.cacheHome.file("stty.txt"), exit: 130)
        tmux.tearDown()

        // SIGTERM.
        tmux = try start(bed)
        #expect(try tmux.waitForScreen(ready).0)
        let pid = try #require(try tmux.childProcess())
        kill(pid, SIGTERM)
        try expectRestored(tmux, bed.cacheHome.file("stty.txt"), exit: 143)
        tmux.tearDown()

        // The daemon cannot be reached at the start: the advice, exit 2.
        bed.daemon.stop()
        tmux = try start(bed)
        defer { tmux.tearDown() }
        try expectRestored(tmux, bed.cacheHome.file("stty.txt"), exit: 2)
        #expect(try tmux.screen(history: true).contains { $0.contains("cannot reach onthemapd. Start") })
    }

    /// A daemon that goes away (a restart, a stop) is waited for, as `watch` waits: the status line
    /// says so, how to start it is shown whole over the map, and the map comes back with it; a
    /// logout elsewhere hides the map and its pins, and a login brings it back. At 80 columns, where
    /// the status line had room for "Start it again as it was started" and none of the command.
    @Test func itWaitsForTheDaemonAndForALogin() throws {
        let bed = try CLITestBed()
        let tmux = try start(bed, width: 80, height: 30)
        defer { tmux.tearDown() }
        var (shown, lines) = try tmux.waitForScreen { self.zoom($0) == 1 }
        #expect(shown, "\(lines.joined(separator: "\n"))")
        let map = Array(lines.prefix(29))

        // Gone as a crash goes (a stop takes its word on how to start it again away with it).
        let hint = try String(contentsOfFile: bed.daemon.socketPath + ".how-to-start", encoding: .utf8)
            .trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(hint.count > 80, "a command longer than the terminal is wide: \(hint)")
        bed.daemon.signal(SIGKILL)
        (shown, lines) = try tmux.waitForScreen { self.status($0).hasPrefix("onthemapd went away; waiting for it (q quits)") }
        #expect(shown, "\(status(lines))")
        // The whole command, on lines that end in " \" where it is broken: pasted into a shell as
        // shown, it is the command.
        (shown, lines) = try tmux.waitForScreen(timeout: 30) { self.shownCommand($0).contains(hint) }
        #expect(shown, "the advice, from the daemon's own word, whole: \(lines.joined(separator: "\n"))")
        #expect(lines.contains { $0.hasPrefix(" Start it again as it was started:") }, "\(lines.joined(separator: "\n"))")
        #expect(Array(lines.prefix(20)) == Array(map.prefix(20)), "the map stays above the advice while it waits")
        #expect(try tmux.display("#{pane_dead}") == "0", "still running")

        try bed.daemon.start()
        (shown, lines) = try tmux.waitForScreen(timeout: 30) { self.status($0).hasPrefix("onthemapd is back") }
        #expect(shown, "\(status(lines))")
        try tmux.send("n")
        (shown, lines) = try tmux.waitForScreen { self.status($0).hasPrefix("1/100  ") }
        #expect(shown, "picking works again: \(status(lines))")

        // Logged out elsewhere: the map goes with its pins (the students' data is for those logged
        // in), the pick too, and a note over the screen says what brings it back.
        #expect(try bed.run(["logout"]).status == 0)
        (shown, lines) = try tmux.waitForScreen { self.status($0).hasPrefix("logged out (q quits)") }
        #expect(shown, "\(status(lines))")
        #expect(lines.contains { $0.hasPrefix(" Logged out: the map comes back with the next login, `onthemap login`") },
                "\(lines.joined(separator: "\n"))")
        #expect(lines.prefix(20).allSatisfy { $0.trimmingCharacters(in: .whitespaces).isEmpty },
                "no map and no pin shown: \(lines.joined(separator: "\n"))")
        try tmux.send("Enter")
        (shown, lines) = try tmux.waitForScreen { self.status($0).hasPrefix("pick a pin first") }
        #expect(shown, "nothing is picked any more: \(status(lines))")
        #expect(!FileManager.default.fileExists(atPath: bed.cacheHome.file("opened.txt")))
        #expect(try bed.run(["login", "--username", "demo@onthemap.example", "--password-stdin"], stdin: "onthemap-demo\n").status == 0)
        // The map back after the login, the status line says where it is: the hint of the
        // logged-out screen went with it (it stayed until a key cleared it).
        (shown, lines) = try tmux.waitForScreen { self.zoom($0) == 1 }
        #expect(shown, "the map is back after the login, and no older hint: \(status(lines))")

        try tmux.send("q")
        try expectRestored(tmux, bed.cacheHome.file("stty.txt"), exit: 0)
    }

    /// Issue 40's own case: a daemon stopped normally, as `systemctl --user restart` stops it
    /// (SIGTERM: it closes its connections and removes its socket), is waited for as a crash is.
    /// The map keeps running and its status line says the daemon is gone; started again, the map
    /// comes back and picks anew.
    @Test func aDaemonStoppedAndStartedAgainIsWaitedFor() throws {
        let bed = try CLITestBed()
        let tmux = try start(bed, width: 100, height: 30)
        defer { tmux.tearDown() }
        _ = try pickTheFirstPinOfTheWorld(tmux)

        #expect(bed.daemon.stop() == 0, "onthemapd's exit status after SIGTERM")
        var (shown, lines) = try tmux.waitForScreen { self.status($0).hasPrefix("onthemapd went away; waiting for it (q quits)") }
        #expect(shown, "\(lines.joined(separator: "\n"))")
        // Still away after an attempt to reach it: how to start it again, over the map.
        (shown, lines) = try tmux.waitForScreen { $0.contains { $0.hasPrefix(" Start it again as it was started:") } }
        #expect(shown, "\(lines.joined(separator: "\n"))")
        #expect(status(lines).hasPrefix("onthemapd went away; waiting for it (q quits)"), "\(status(lines))")
        #expect(try tmux.display("#{pane_dead}") == "0", "still running")
        #expect(!(try tmux.screen(history: true)).contains { $0.hasPrefix("EXITED=") }, "map -i ended")
        // The pick went with the daemon: Enter opens nothing.
        try tmux.send("Enter")
        (shown, lines) = try tmux.waitForScreen { self.status($0).hasPrefix("pick a pin first (n, p or Tab)") }
        #expect(shown, "\(status(lines))")

        try bed.daemon.start()
        (shown, lines) = try tmux.waitForScreen(timeout: 30) { self.status($0).hasPrefix("onthemapd is back") }
        #expect(shown, "\(lines.joined(separator: "\n"))")
        #expect(!lines.contains { $0.hasPrefix(" Start it again as it was started:") }, "\(lines.joined(separator: "\n"))")
        // Where it was: at the world's zoom, centred on the pin picked before (so not every pin is in
        // view).
        try tmux.send("Escape")
        (shown, lines) = try tmux.waitForScreen { self.zoom($0) == 1 }
        #expect(shown, "the map is back: \(status(lines))")
        try tmux.send("n")
        (shown, lines) = try tmux.waitForScreen { self.status($0).contains(#/^1/[0-9]+  /#) }
        #expect(shown, "picking works again: \(status(lines))")
        #expect(!FileManager.default.fileExists(atPath: bed.cacheHome.file("opened.txt")))

        try tmux.send("q")
        try expectRestored(tmux, bed.cacheHome.file("stty.txt"), exit: 0)
    }

    /// Once the whole world is shown, `n` picks its first pin; the screen then.
    private func pickTheFirstPinOfTheWorld(_ tmux: TmuxSession, sourceLocation: SourceLocation = #_sourceLocation) throws -> [String] {
        var (shown, lines) = try tmux.waitForScreen { self.zoom($0) == 1 }
        #expect(shown, sourceLocation: sourceLocation)
        try tmux.send("n")
        (shown, lines) = try tmux.waitForScreen { self.status($0).hasPrefix("1/100  ") }
        #expect(shown, "\(status(lines))", sourceLocation: sourceLocation)
        return lines
    }

    /// After `n` picks a pin and `/` goes elsewhere, the pick is gone: Enter opens nothing nobody
    /// can see. Issue 40's own case is a place looked up by name, `/ Springfield`: the map goes to
    /// the first of the places of that name without asking which, and names it; the pick (pin 1 of
    /// the world) is not in that view. The other goes to coordinates, far from every pin of the
    /// demo data (the South Pacific).
    @Test(arguments: zip(["Springfield", "-50,-130"], ["→ Springfield, ", "→ -50, -130"]))
    func aPickTheMapMovedAwayFromIsDropped(typed: String, said: String) throws {
        let bed = try CLITestBed()
        let tmux = try start(bed, width: 100, height: 30)
        defer { tmux.tearDown() }
        let picked = status(try pickTheFirstPinOfTheWorld(tmux))
        try tmux.send("/", typed, "Enter")
        var (shown, lines) = try tmux.waitForScreen { self.status($0).hasPrefix(said) }
        #expect(shown, "\(status(lines))")
        // What a person does next: Enter, to open the pin they picked (which the map no longer shows).
        try tmux.send("Enter")
        (shown, lines) = try tmux.waitForScreen { self.status($0).hasPrefix("pick a pin first (n, p or Tab)") }
        #expect(shown, "after \(picked): \(status(lines))")
        #expect(!FileManager.default.fileExists(atPath: bed.cacheHome.file("opened.txt")), "Enter opened the old pick, \(picked)")
        try tmux.send("q")
        try expectRestored(tmux, bed.cacheHome.file("stty.txt"), exit: 0)
    }

    /// The map in view when `map -i` quits is the last one shown: `open 1` then opens its pin 1 (the
    /// one `n` names first), not row 1 of a table shown before it.
    @Test func afterQuittingOpenNumbersThePinsAsTheMapDid() throws {
        let bed = try CLITestBed()
        _ = try bed.run(["students", "--limit", "3"], extra: ["COLUMNS": "100"])
        let tmux = try start(bed, width: 100, height: 30)
        defer { tmux.tearDown() }
        // The whole world: picking pin 1 leaves the view (and so the numbers) as they were.
        let link = try #require(status(try pickTheFirstPinOfTheWorld(tmux)).components(separatedBy: " — ").last)
        try tmux.send("q")
        try expectRestored(tmux, bed.cacheHome.file("stty.txt"), exit: 0)
        let open = try bed.run(["open", "1"], extra: ["ONTHEMAP_OPENER": "/bin/echo"])
        #expect(open.status == 0, "\(open.stderr)")
        #expect(open.stdout == link + "\n", "\(open.stdout) is not the link of pin 1, \(link)")
    }

    /// A terminal too small for the map says the size it needs, whole, however small (at 15×3 the
    /// sentence was cut before the size); made larger, it shows the map.
    @Test func aTinyTerminalSaysTheSizeTheMapNeeds() throws {
        let bed = try CLITestBed()
        let tmux = try start(bed, width: 20, height: 5)
        defer { tmux.tearDown() }
        var (shown, lines) = try tmux.waitForScreen { $0.joined(separator: " ").contains("it needs 10×6") }
        #expect(shown, "\(lines.joined(separator: "\n"))")
        try tmux.tmux(["resize-window", "-t", "0", "-x", "15", "-y", "3"])
        (shown, lines) = try tmux.waitForScreen { $0.joined(separator: " ").contains("needs 10×6") && !$0.joined().contains("…") }
        #expect(shown, "\(lines.joined(separator: "\n"))")
        try tmux.tmux(["resize-window", "-t", "0", "-x", "80", "-y", "24"])
        (shown, lines) = try tmux.waitForScreen { self.zoom($0) == 1 }
        #expect(shown, "\(lines.joined(separator: "\n"))")
        try tmux.send("q")
        // (After the resizes tmux shows the last map on the main screen too: the exit line follows it.)
        (shown, lines) = try tmux.waitForScreen { $0.joined().contains("EXITED=0") }
        #expect(shown, "\(lines.joined(separator: "\n"))")
    }

    /// At 60×12 the list of keys does not fit: it scrolls, line by line, and every key can be read,
    /// each description whole: one too long for the box goes on under the description column (as
    /// Neovim's `g?` list does); two were cut with "…".
    @Test func theKeysScrollOnASmallTerminal() throws {
        let bed = try CLITestBed()
        let tmux = try start(bed, width: 60, height: 12)
        defer { tmux.tearDown() }
        var (shown, lines) = try tmux.waitForScreen { self.zoom($0) == 1 }
        #expect(shown, "\(lines.joined(separator: "\n"))")
        try tmux.send("?")
        (shown, lines) = try tmux.waitForScreen { self.wholeHelpBox($0) }
        #expect(shown, "\(lines.joined(separator: "\n"))")
        // The list's lines as they scroll by, one line a `j`: the box at offset n shows line n first.
        var list: [String] = []
        var offset = 0
        while true {
            let rows = helpBoxRows(lines)
            #expect(!rows.isEmpty, "\(lines.joined(separator: "\n"))")
            for (index, row) in rows.enumerated() where offset + index >= list.count { list.append(row) }
            guard lines.contains(where: { $0.contains("↓") }), offset < 40 else { break }
            let before = lines
            try tmux.send("j")
            offset += 1
            (shown, lines) = try tmux.waitForScreen { $0 != before && self.wholeHelpBox($0) }
            #expect(shown, "\(lines.joined(separator: "\n"))")
        }
        #expect(lines.contains { $0.contains("↑") && !$0.contains("↓") }, "at the end: \(lines.joined(separator: "\n"))")
        #expect(!list.contains { $0.contains("…") }, "cut: \(list.joined(separator: "\n"))")
        // Each key with its whole description, the lines after its first under the description column.
        let column = (MapKey.keyList.map(\.keys.count).max() ?? 0) + 2
        for key in MapKey.keyList {
            guard let first = list.firstIndex(where: { $0.hasPrefix(key.keys + " ") }) else {
                Issue.record("\(key.keys) not shown: \(list.joined(separator: "\n"))")
                continue
            }
            var words = [String(list[first].dropFirst(column))]
            var next = first + 1
            while next < list.count, list[next].hasPrefix(String(repeating: " ", count: column)), list[next].dropFirst(column).first != " " {
                words.append(String(list[next].dropFirst(column)))
                next += 1
            }
            #expect(words.joined(separator: " ") == key.what, "\(key.keys): \(words)")
        }
        // The two that were cut go on over a second line.
        #expect(list.contains(String(repeating: " ", count: column) + "it"), "\(list.joined(separator: "\n"))")
        #expect(list.contains(String(repeating: " ", count: column) + "LAT,LON"), "\(list.joined(separator: "\n"))")
        // Any other key closes it.
        try tmux.send("x")
        (shown, lines) = try tmux.waitForScreen { !$0.joined().contains("Keys (") }
        #expect(shown)
        try tmux.send("q")
        try expectRestored(tmux, bed.cacheHome.file("stty.txt"), exit: 0)
    }

    /// The scrolling help box's rows, title to bottom border, each as the text between its borders;
    /// nil until it is drawn whole. A frame is one write, but tmux may show it half applied: the map
    /// redrawn over the top of the box, the box not yet over it. The map shows either side of a box
    /// narrower than the screen: the borders are found by the columns of the top one.
    private func helpBox(_ lines: [String]) -> [String]? {
        guard let title = lines.firstIndex(where: { $0.contains("Keys (j/k or arrows scroll, any other key closes)") }), title > 0
        else { return nil }
        let top = Array(lines[title - 1])
        guard let left = top.firstIndex(of: "+"), let right = top.lastIndex(of: "+"), right > left + 1,
            top[(left + 1)..<right].allSatisfy({ $0 == "-" })
        else { return nil }
        var rows: [String] = []
        for line in lines[title...].map(Array.init) {
            guard line.count > right else { return nil }
            if line[left] == "+" && line[right] == "+" { return rows }
            guard line[left] == "|" && line[right] == "|" else { return nil }
            rows.append(String(line[(left + 1)..<right]))
        }
        return nil
    }

    /// The rows of the list the scrolling help box shows (between its title and its "more" line),
    /// each without the space either side.
    private func helpBoxRows(_ lines: [String]) -> [String] {
        guard let rows = helpBox(lines), rows.count > 2 else { return [] }
        return rows.dropFirst().dropLast().map { row in
            var text = Substring(row)
            if text.first == " " { text = text.dropFirst() }
            while text.last == " " { text = text.dropLast() }
            return String(text)
        }
    }

    private func wholeHelpBox(_ lines: [String]) -> Bool { helpBox(lines) != nil }

    /// A short terminal's world view is cut (Sydney, Cape Town and Buenos Aires fall outside it), and
    /// the status line says so, as `onthemap map` does, rather than "the whole world".
    @Test func aCutWorldSaysWhatItLeavesOut() throws {
        let bed = try CLITestBed()
        let tmux = try start(bed, width: 60, height: 12)
        defer { tmux.tearDown() }
        let (shown, lines) = try tmux.waitForScreen { self.zoom($0) == 1 }
        #expect(shown)
        #expect(status(lines).contains(#/^[0-9]+ pins, [0-9]+ outside · zoom 1 · the world cut at [0-9]+°N, [0-9]+°S ·/#), "\(status(lines))")
        try tmux.send("q")
        try expectRestored(tmux, bed.cacheHome.file("stty.txt"), exit: 0)
    }

    /// A wide terminal's world view names no centre: it was "Algiers, Algeria".
    @Test func theWorldOnAWideTerminalIsNoOnePlace() throws {
        let bed = try CLITestBed()
        let tmux = try start(bed, width: 200, height: 50)
        defer { tmux.tearDown() }
        let (shown, lines) = try tmux.waitForScreen { self.zoom($0) == 1 }
        #expect(shown)
        #expect(status(lines).contains("· zoom 1 · the whole world ·"), "\(status(lines))")
        #expect(!status(lines).contains("Algiers"))
        try tmux.send("q")
        try expectRestored(tmux, bed.cacheHome.file("stty.txt"), exit: 0)
    }

    @Test("? lists every key over the map; the key line fits 80 columns; a and z zoom; the mouse zooms and pans")
    func helpKeysAndTheMouse() throws {
        let bed = try CLITestBed()
        let tmux = try start(bed, width: 80, height: 24)
        defer { tmux.tearDown() }
        var (shown, lines) = try tmux.waitForScreen { self.zoom($0) == 1 }
        #expect(shown, "\(lines.joined(separator: "\n"))")
        // The key line: whole keys only, `? keys` among them, within 80 columns.
        let keyLine = status(lines)
        #expect(keyLine.count <= 80)
        #expect(keyLine.contains("q quit  ? keys  +/- zoom"), "\(keyLine)")
        #expect(!keyLine.contains("…"))

        try tmux.send("?")
        // The whole box: tmux may show a frame it has read only part of (its last line is the key q).
        (shown, lines) = try tmux.waitForScreen { $0.joined().contains("Keys (any key closes this)") && $0.joined().contains("| q, Ctrl-C") }
        #expect(shown, "\(lines.joined(separator: "\n"))")
        let overlay = lines.joined(separator: "\n")
        for key in ["arrows, h j k l", "+ -, a z", "wheel (mouse)", "drag (mouse)", "0, w", "n, p, Tab", "Enter", "/", "r", "q, Ctrl-C"] {
            #expect(overlay.contains(key), "\(key) is listed")
        }
        try tmux.send("x")
        (shown, lines) = try tmux.waitForScreen { !$0.joined().contains("Keys (any key closes this)") }
        #expect(shown, "any key closes the list")

        // a and z, as mapscii's users type.
        try tmux.send("a")
        (shown, lines) = try tmux.waitForScreen { self.zoom($0) == 2 }
        #expect(shown, "\(status(lines))")
        try tmux.send("z")
        (shown, lines) = try tmux.waitForScreen { self.zoom($0) == 1 }
        #expect(shown, "\(status(lines))")

        // The wheel (SGR mouse: ESC [ < 64 ; col ; row M) zooms in where the pointer is.
        try tmux.tmux(["send-keys", "-t", "0", "-l", "\u{1B}[<64;20;8M"])
        (shown, lines) = try tmux.waitForScreen { self.zoom($0) == 2 }
        #expect(shown, "the wheel zooms: \(status(lines))")
        try tmux.tmux(["send-keys", "-t", "0", "-l", "\u{1B}[<65;20;8M"])
        (shown, lines) = try tmux.waitForScreen { self.zoom($0) == 1 }
        #expect(shown, "\(status(lines))")
        try tmux.send("a", "a")
        (shown, lines) = try tmux.waitForScreen { self.zoom($0) == 4 }
        // A drag pans: the map follows the pointer, 20 cells to the left.
        let before = Array(lines.prefix(23))
        try tmux.tmux(["send-keys", "-t", "0", "-l", "\u{1B}[<0;50;12M\u{1B}[<32;40;12M\u{1B}[<32;30;12M\u{1B}[<0;30;12m"])
        (shown, lines) = try tmux.waitForScreen { Array($0.prefix(23)) != before && self.zoom($0) == 4 }
        #expect(shown, "dragging pans")
        // Row 5's right part, moved 20 cells left (names and pins aside, the land is the same).
        let movedRow = Array(lines[5].unicodeScalars)
        let beforeRow = Array(before[5].unicodeScalars)
        let same = (30..<60).filter { movedRow[$0 - 20] == beforeRow[$0] }.count
        #expect(same >= 20, "\(before[5])\n\(lines[5])")

        try tmux.send("q")
        try expectRestored(tmux, bed.cacheHome.file("stty.txt"), exit: 0)
    }

    @Test("n and p centre the picked pin")
    func pickingCentresThePin() throws {
        let bed = try CLITestBed()
        let tmux = try start(bed, width: 80, height: 24, colour: true)
        defer { tmux.tearDown() }
        var (shown, lines) = try tmux.waitForScreen { self.zoom($0) == 1 }
        #expect(shown, "\(lines.joined(separator: "\n"))")
        try tmux.send("a")
        (shown, lines) = try tmux.waitForScreen { self.zoom($0) == 2 }
        for key in ["n", "n", "p", "Tab"] {
            try tmux.send(key)
            (shown, lines) = try tmux.waitForScreen { self.status($0).contains(#/^[0-9]+/[0-9]+  /#) }
            // The picked pin is drawn in reverse video, in the middle of the 80×23 map.
            var cell: (row: Int, col: Int)?
            let deadline = Date().addingTimeInterval(10)
            while cell == nil || abs(cell!.col - 40) > 1 || abs(cell!.row - 11) > 1, Date() < deadline {
                usleep(100_000)
                cell = Self.reverseVideoCell(try tmux.tmux(["capture-pane", "-p", "-e", "-t", "0"]))
            }
            let capture = try tmux.tmux(["capture-pane", "-p", "-e", "-t", "0"])
            #expect(
                cell.map { abs($0.col - 40) <= 1 && abs($0.row - 11) <= 1 } == true,
                "\(key): the pick is at \(String(describing: cell)) in \(capture.debugDescription.prefix(3000))")
        }
        try tmux.send("q")
        try expectRestored(tmux, bed.cacheHome.file("stty.txt"), exit: 0)
    }

    /// The first cell of the map (its 23 rows) drawn in reverse video (SGR 7), in a pane captured with
    /// its escapes.
    static func reverseVideoCell(_ capture: String) -> (row: Int, col: Int)? {
        TmuxSession.attributedCells(capture).first { $0.row < 23 && $0.attributes.contains("7") }.map { ($0.row, $0.col) }
    }

    /// xdg-open with no browser writes eight lines, the first of them one of its attempts
    /// ("www-browser: not found"), not why it failed.
    @Test("An opener's output never reaches the screen: the message is onthemap open's, with the link")
    func anOpenersOutputIsCaptured() throws {
        let bed = try CLITestBed()
        let noisy = (1...8).map { "echo \"xdg-open: line \($0) of complaints\" >&2" }.joined(separator: "\n") + "\nexit 3"
        let tmux = try start(bed, width: 200, height: 24, opener: noisy)
        defer { tmux.tearDown() }
        var (shown, lines) = try tmux.waitForScreen { self.zoom($0) == 1 }
        #expect(shown)
        try tmux.send("n")
        (shown, lines) = try tmux.waitForScreen { self.status($0).hasPrefix("1/") }
        let link = status(lines).components(separatedBy: " — ").last ?? ""
        #expect(link.hasPrefix("http"), "\(status(lines))")
        try tmux.send("Enter")
        (shown, lines) = try tmux.waitForScreen { self.status($0).contains("failed to open") }
        #expect(shown, "\(lines.joined(separator: "\n"))")
        #expect(status(lines).hasSuffix("failed to open \(link) (exit status 3): open it in a browser yourself"), "\(status(lines))")
        // Nothing scrolled: the map is where it was, and no line of the opener's is on screen.
        #expect(lines.allSatisfy { !$0.contains("complaints") })
        #expect(lines[0].unicodeScalars.contains { (0x2800...0x28FF).contains($0.value) }, "\(lines[0])")
        try tmux.send("q")
        try expectRestored(tmux, bed.cacheHome.file("stty.txt"), exit: 0)
    }

    @Test("The session survives the daemon's idle timeout")
    func survivesTheIdleTimeout() throws {
        let bed = try CLITestBed(daemonArguments: ["--idle-timeout", "5"])
        let tmux = try start(bed, width: 80, height: 24)
        defer { tmux.tearDown() }
        var (shown, lines) = try tmux.waitForScreen { self.zoom($0) == 1 }
        #expect(shown, "\(lines.joined(separator: "\n"))")
        // Longer than the idle timeout without a key: the daemon has closed the calls' connection.
        Thread.sleep(forTimeInterval: 6.5)
        try tmux.send("+")
        (shown, lines) = try tmux.waitForScreen { self.zoom($0) == 2 }
        #expect(shown, "\(lines.joined(separator: "\n"))")
        Thread.sleep(forTimeInterval: 6.5)
        // A point, not a place name: the first geocode builds the gazetteer's index, which in a debug
        // build on a busy machine can take longer than the 5 s the daemon lets a connection go unread
        // (its idle timeout counts from the last request, even with one in flight).
        try tmux.send("/", "52.52,13.40", "Enter")
        (shown, lines) = try tmux.waitForScreen { self.status($0).hasPrefix("→ 52.5") }
        #expect(shown, "\(status(lines))")
        try tmux.send("q")
        try expectRestored(tmux, bed.cacheHome.file("stty.txt"), exit: 0)
    }

    @Test("Zooming in stops where the map has no finer detail, and says so")
    func zoomStopsAtTheDatasDetail() throws {
        let bed = try CLITestBed()
        let tmux = try start(bed, width: 80, height: 24)
        defer { tmux.tearDown() }
        var (shown, lines) = try tmux.waitForScreen { self.zoom($0) == 1 }
        #expect(shown)
        for _ in 0..<8 { try tmux.send("+") }
        (shown, lines) = try tmux.waitForScreen { self.status($0).contains("zoom 204.8 (closest)") }
        #expect(shown, "\(status(lines))")
        #expect(lines.prefix(23).contains { $0.unicodeScalars.contains { (0x2801...0x28FF).contains($0.value) } }, "still a map")
        try tmux.send("+")
        (shown, lines) = try tmux.waitForScreen { self.status($0).hasPrefix("as close as the map draws") }
        #expect(shown, "\(status(lines))")
        try tmux.send("q")
        try expectRestored(tmux, bed.cacheHome.file("stty.txt"), exit: 0)
    }
}
