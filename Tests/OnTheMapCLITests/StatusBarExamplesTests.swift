import Foundation
import OnTheMapModels
import OnTheMapTestSupport
import Testing

/// The status-bar examples in clients/, run the way a user runs them.
@Suite("clients/ status bars", .ownThreads)
struct StatusBarExamplesTests {
    static let clients = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../../clients").standardized

    @Test(
        "i3blocks with interval=persist keeps the colour: green, grey when logged out, red when offline",
        .enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/i3blocks"), "needs i3blocks (Debian package i3blocks)")
    )
    func i3blocksPersistentBlockKeepsColour() throws {
        let bed = try CLITestBed()
        let home = try TemporaryDirectory(prefix: "onthemap-i3blocks")
        defer { home.remove() }
        // The example as shipped, with `onthemap` pointing at the binary under test.
        let example = try String(contentsOf: Self.clients.appendingPathComponent("i3blocks/config"), encoding: .utf8)
        let config = example.replacingOccurrences(of: "command=onthemap ", with: "command=\(BuiltProducts.path("onthemap")) ")
        try config.write(toFile: home.file("config"), atomically: true, encoding: .utf8)
        let bar = try RunningProcess("/usr/bin/i3blocks", ["-c", home.file("config")], environment: bed.environment)
        defer { bar.stop() }

        /// The colour of the onthemap block in i3bar's latest status line, if it has one.
        func blockColour(_ line: String) -> String? {
            guard let text = line.hasPrefix(",") ? String(line.dropFirst()) : Optional(line),
                case .array(let blocks)? = try? JSONText.parse(text.utf8),
                let block = blocks.first(where: { $0["name"] == .string("onthemap") })
            else { return nil }
            return block["color"]?.stringValue
        }
        #expect(bar.waitForLine { blockColour($0) == "#a6e3a1" }, "\(bar.lines.suffix(3))")
        // Students' text stays text under a bar that reads every block as Pango markup.
        #expect(bar.lines.contains { $0.contains(#""markup":"none""#) && $0.contains(#""name":"onthemap""#) }, "\(bar.lines.suffix(3))")
        let beforeLogout = bar.lines.count
        #expect(try bed.run(["logout"]).status == 0)
        #expect(bar.waitForLine(after: beforeLogout) { blockColour($0) == "#9399b2" }, "\(bar.lines.suffix(3))")
        let beforeStop = bar.lines.count
        #expect(bed.daemon.stop() == 0)
        #expect(bar.waitForLine(after: beforeStop) { blockColour($0) == "#f38ba8" }, "\(bar.lines.suffix(3))")
    }

    @Test("The waybar example leaves the escaping to onthemap, which writes student text as Pango markup of text")
    func waybarExampleEscapes() throws {
        let config = try String(contentsOf: Self.clients.appendingPathComponent("waybar/config.jsonc"), encoding: .utf8)
        let json = config.split(separator: "\n").filter { !$0.trimmingCharacters(in: .whitespaces).hasPrefix("//") }.joined(separator: "\n")
        let module = try JSONText.parse(json.utf8)["custom/onthemap"]
        // The line comes escaped (StatusBarFormat.pangoEscaped): Waybar must not escape it again.
        #expect(module?["escape"] == .bool(false))
        #expect(module?["return-type"] == .string("json"))
    }

    @Test("The socat script finds the daemon without XDG_RUNTIME_DIR, and names where it looked")
    func shellScriptWithoutRuntimeDirectory() throws {
        let script = Self.clients.appendingPathComponent("shell/onthemap-socat.sh").path
        let result = try runCommand("/usr/bin/env", ["-i", "PATH=/usr/bin:/bin", "/bin/bash", script, "status"])
        #expect(result.status == 2)
        #expect(result.stderr.contains("/run/user/\(getuid())/onthemap/onthemapd.sock"), "\(result.stderr)")
        #expect(result.stderr.contains("/tmp/onthemap-\(getuid())/onthemapd.sock"), "\(result.stderr)")
    }

    /// One advice for every client (issue 40): with no daemon answering, the socat script says what
    /// the CLI says, to the letter, and without the CLI it still gives the command line the daemon
    /// was started with (its --api-url), never a systemctl this machine may not have.
    @Test func shellScriptGivesTheCLIsAdviceWhenNoDaemonAnswers() throws {
        let home = try TemporaryDirectory(prefix: "onthemap-socat")
        defer { home.remove() }
        let socket = home.file("onthemapd.sock")
        let started = "onthemapd --socket \(socket) --api-url http://127.0.0.1:18181/v1"
        try (started + "\n").write(toFile: socket + ".how-to-start", atomically: true, encoding: .utf8)
        let script = Self.clients.appendingPathComponent("shell/onthemap-socat.sh").path
        let withCLI = "PATH=\(BuiltProducts.directory):/usr/bin:/bin"
        let cli = try runCommand("/usr/bin/env", ["-i", withCLI, "ONTHEMAP_SOCKET=\(socket)", BuiltProducts.path("onthemap"), "status"])
        #expect(cli.status == 2 && cli.stderr.contains("`\(started)`"), "\(cli.stderr)")
        let shell = try runCommand("/usr/bin/env", ["-i", withCLI, "ONTHEMAP_SOCKET=\(socket)", "/bin/bash", script, "status"])
        #expect(shell.status == 2)
        #expect("onthemap: " + shell.stderr == cli.stderr, "\(shell.stderr)")

        let alone = try runCommand("/usr/bin/env", ["-i", "PATH=/usr/bin:/bin", "ONTHEMAP_SOCKET=\(socket)", "/bin/bash", script, "status"])
        #expect(alone.status == 2)
        #expect(alone.stderr == "cannot reach onthemapd. Start it again as it was started: `\(started)`. Tried \(socket).\n", "\(alone.stderr)")
    }
}
