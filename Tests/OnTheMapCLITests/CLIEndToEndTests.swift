import Foundation
import OnTheMapModels
import OnTheMapTestSupport
import Testing

/// The real `onthemap` binary against a real daemon and server.
final class CLITestBed: @unchecked Sendable {
    let server: ServerFixture
    let daemon: DaemonProcess
    let cacheHome: TemporaryDirectory

    init(login: Bool = true, students: Int = 120, daemonArguments: [String] = []) throws {
        server = try ServerFixture()
        try server.seedDemo(count: students)
        daemon = try DaemonProcess(apiURL: server.baseURL, arguments: daemonArguments)
        cacheHome = try TemporaryDirectory(prefix: "onthemap-cli")
        if login {
            let result = try run(["login", "--username", "demo@onthemap.example", "--password-stdin"], stdin: "onthemap-demo\n")
            guard result.status == 0 else { throw ServerProcessError(message: "login failed: \(result.stderr)") }
        }
    }

    var environment: [String: String] {
        ["ONTHEMAP_SOCKET": daemon.socketPath, "XDG_CACHE_HOME": cacheHome.path, "NO_COLOR": "1", "COLUMNS": ""]
    }

    func run(_ arguments: [String], stdin: String? = nil, extra: [String: String] = [:]) throws -> CommandResult {
        try runCommand(BuiltProducts.path("onthemap"), arguments, stdin: stdin, environment: environment.merging(extra) { $1 })
    }

    deinit {
        daemon.tearDown()
        server.tearDown()
        cacheHome.remove()
    }
}

@Suite("onthemap end to end", .ownThreads)
struct CLIEndToEndTests {
    @Test func statusAndStudents() throws {
        let bed = try CLITestBed()
        let status = try bed.run(["status"])
        #expect(status.status == 0)
        #expect(status.stdout.contains("logged in as Ada Lovelace"))
        #expect(status.stdout.contains("students: 100"))

        let json = try bed.run(["status", "--json"])
        let parsed = try JSONDecoder().decode(WireJSON.self, from: Data(json.stdout.utf8))
        #expect(parsed["loggedIn"] == .bool(true))

        let table = try bed.run(["students", "--limit", "5"])
        #expect(table.status == 0)
        let lines = table.stdout.split(separator: "\n")
        #expect(lines.count == 6)
        #expect(lines[0].hasPrefix("#  NAME"))

        let students = try bed.run(["students", "--json", "--limit", "3"])
        let array = try WireCoding.decoder().decode([StudentLocation].self, from: Data(students.stdout.utf8))
        #expect(array.count == 3)

        let tsv = try bed.run(["students", "--tsv", "--search", "berlin"])
        #expect(tsv.stdout.hasPrefix("firstName\tlastName\tmapString"))
        #expect(tsv.stdout.split(separator: "\n").dropFirst().allSatisfy { $0.contains("Berlin") })

        let geojson = try bed.run(["students", "--geojson", "--limit", "2"])
        #expect(try JSONDecoder().decode(WireJSON.self, from: Data(geojson.stdout.utf8))["type"] == .string("FeatureCollection"))

        let near = try bed.run(["students", "--near", "48.85,2.35", "--limit", "1", "--json"])
        #expect(near.status == 0)
        let refresh = try bed.run(["refresh"])
        #expect(refresh.status == 0)
        #expect(refresh.stderr == "fetched the 100 newest students\n", "\(refresh.stderr)")
        let waybar = try bed.run(["status", "--format", "waybar"])
        #expect(try JSONDecoder().decode(WireJSON.self, from: Data(waybar.stdout.utf8))["class"] == .string("ok"))
    }

    @Test func exitCodes() throws {
        let bed = try CLITestBed()
        // 1: the daemon answered with an error.
        let notFound = try bed.run(["geocode", "Xyzzyville"])
        #expect(notFound.status == 1)
        #expect(notFound.stderr.contains("no place matches"))
        #expect(notFound.stdout.isEmpty)
        // 64: usage.
        #expect(try bed.run(["students", "--json", "--tsv"]).status == 64)
        #expect(try bed.run(["frobnicate"]).status == 64)
        // 2: no daemon, with the way to start one.
        let unreachable = try bed.run(["status"], extra: ["ONTHEMAP_SOCKET": bed.cacheHome.file("nope.sock")])
        #expect(unreachable.status == 2)
        #expect(unreachable.stderr.contains("onthemapd --socket \(bed.cacheHome.file("nope.sock"))"), "a daemon on the socket named")
        // A path with a space and a quote, quoted so the advice can be pasted into a shell.
        let odd = bed.cacheHome.file("it's here/nope.sock")
        let quoted = try bed.run(["status"], extra: ["ONTHEMAP_SOCKET": odd])
        let advice = try #require(quoted.stderr.firstRange(of: "onthemapd --socket ").map { quoted.stderr[$0.upperBound...] })
        // The word ends where the command does: " &`".
        let word = String(advice.prefix { $0 != "`" }.dropLast(" &".count))
        #expect(word == "'" + odd.replacingOccurrences(of: "'", with: #"'\''"#) + "'", "\(quoted.stderr)")
        let reread = try runCommand("/bin/sh", ["-c", "printf %s \(word)"])
        #expect(reread.stdout == odd, "a shell reads the quoted word back as the path")
        // Status bars still get a line.
        let offline = try bed.run(["status", "--format", "polybar"], extra: ["ONTHEMAP_SOCKET": bed.cacheHome.file("nope.sock")])
        #expect(offline.status == 0)
        #expect(offline.stdout.contains("offline"))
        // 3: not logged in.
        #expect(try bed.run(["logout"]).status == 0)
        let loggedOut = try bed.run(["students"])
        #expect(loggedOut.status == 3)
        // The daemon's sentence goes on after the prefix in lower case, as the CLI's own messages do.
        #expect(loggedOut.stderr == "onthemap: not logged in: run `onthemap login` first.\n", "\(loggedOut.stderr)")
        // Logged out, `post` says so first, with or without a terminal to confirm on.
        for post in [["post", "Paris", "https://ada.example"], ["post", "Paris", "https://ada.example", "--yes"]] {
            let refused = try bed.run(post)
            #expect(refused.status == 3 && refused.stderr.contains("onthemap login"), "\(post): \(refused.stderr)")
            // Said before the place is looked up or the link read: nothing of either is printed.
            let said = refused.stdout + refused.stderr
            #expect(!said.contains("place:") && !said.contains("link:") && !said.contains("Paris"), "\(post): \(said)")
        }
        // A wrong password is a daemon error, and no secret in argv is accepted.
        let wrong = try bed.run(["login", "--username", "demo@onthemap.example", "--password-stdin"], stdin: "nope\n")
        #expect(wrong.status == 1)
        #expect(try bed.run(["login", "--username", "demo@onthemap.example", "--password", "x"]).status == 64)
        // No terminal and no --password-stdin: a usage error, not a hang.
        let noTTY = try bed.run(["login", "--username", "demo@onthemap.example"])
        #expect(noTTY.status == 64)
        #expect(noTTY.stderr.contains("--password-stdin"))
    }

    @Test func postMyPinAndOverwrite() throws {
        let bed = try CLITestBed()
        let noTTY = try bed.run(["post", "Munich", "https://ada.example"])
        #expect(noTTY.status == 64)
        #expect(noTTY.stderr.contains("--yes"))

        // One human line on success; the place it used named on stderr.
        let posted = try bed.run(["post", "Lima, Peru", "https://ada.example", "--yes"])
        #expect(posted.status == 0, "\(posted.stderr)")
        #expect(posted.stdout == "pin posted at Lima, Peru (-12.05, -77.03)\n" || posted.stdout == "pin posted at Lima, Peru (-12.04, -77.03)\n", "\(posted.stdout)")
        #expect(posted.stderr.hasPrefix("place: Lima, Peru  ("), "\(posted.stderr)")

        // Refused over the pin you have, and said first: no place looked up or named, no link completed.
        let again = try bed.run(["post", "Paris", "ada.example/again", "--yes"])
        #expect(again.status == 1)
        #expect(again.stderr == "onthemap: you already have a pin at \"Lima, Peru\": add --overwrite to move it\n", "\(again.stderr)")
        #expect(again.stdout.isEmpty, "\(again.stdout)")

        let moved = try bed.run(["post", "Paris", "https://ada.example/2", "--yes", "--overwrite", "--json"])
        #expect(moved.status == 0)
        let result = try JSONDecoder().decode(WireJSON.self, from: Data(moved.stdout.utf8))
        #expect(result["created"] == .bool(false))
        #expect(result["pin"]?["mapString"] == .string("Paris, Ile-de-France, France"))
        let mine = try bed.run(["mypin", "--json"])
        let pin = try WireCoding.decoder().decode(StudentLocation.self, from: Data(mine.stdout.utf8))
        #expect(pin.mapString == "Paris, Ile-de-France, France")
        #expect(pin.mediaURL == "https://ada.example/2")

        // A link that is not a web link is refused as typed, before anything is looked up or said.
        for (link, why) in [
            ("not a url", "it has a space in it"), ("javascript:alert(1)", "it is not an http:// or https:// address"),
            ("http://localhost:99999", "its port, 99999, is not one a connection can use"),
            ("https://www.linkedin.com@evil.example/in/x", "it has a user name before its site"),
        ] {
            let badURL = try bed.run(["post", "Paris", link, "--yes", "--overwrite"])
            #expect(badURL.status == 64, "\(link): \(badURL.stderr)")
            #expect(badURL.stderr.contains("is not a web link (\(why)"), "\(link): \(badURL.stderr)")
            #expect(!badURL.stderr.contains("link: https://") && !badURL.stderr.contains("place:"), "\(badURL.stderr)")
        }
    }

    @Test func openByRowAndByName() throws {
        let bed = try CLITestBed()
        let table = try bed.run(["students", "--limit", "3", "--tsv"])
        let secondLink = table.stdout.split(separator: "\n")[2].split(separator: "\t")[3]
        _ = try bed.run(["students", "--limit", "3"])  // the table `open 2` refers to
        let opened = try bed.run(["open", "2"], extra: ["ONTHEMAP_OPENER": "/bin/echo"])
        #expect(opened.status == 0)
        #expect(opened.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == String(secondLink))
        let missing = try bed.run(["open", "99"], extra: ["ONTHEMAP_OPENER": "/bin/echo"])
        #expect(missing.status == 1)
        // With no daemon to say otherwise, accounts are Udacity's.
        let signup = try bed.run(["signup"], extra: ["ONTHEMAP_OPENER": "/bin/echo", "ONTHEMAP_SOCKET": bed.cacheHome.file("nope.sock")])
        #expect(signup.stdout.contains("https://auth.udacity.com/sign-up"))

        // No program to open links with, or one that fails: exit status 1, saying why.
        let noOpener = try bed.run(["open", "2"], extra: ["ONTHEMAP_OPENER": "/nonexistent/xdg-open"])
        #expect(noOpener.status == 1)
        #expect(noOpener.stderr.contains("cannot run /nonexistent/xdg-open"), "\(noOpener.stderr)")
        let failing = try bed.run(["open", "2"], extra: ["ONTHEMAP_OPENER": "/bin/false"])
        #expect(failing.status == 1)
        #expect(failing.stderr.contains("failed to open"), "\(failing.stderr)")
        #expect(!failing.stderr.contains("opened"))
    }

    @Test func nearTakesNegativeCoordinatesARadiusAndShowsDistances() throws {
        let bed = try CLITestBed()
        // Sydney: south and east, so the first number starts with "-".
        let table = try bed.run(["students", "--near", "-33.87,151.21", "--limit", "3"])
        #expect(table.status == 0, "\(table.stderr)")
        let lines = table.stdout.split(separator: "\n")
        #expect(lines.first?.contains("KM") == true, "\(table.stdout)")
        let json = try bed.run(["students", "--near", "-33.87,151.21", "--limit", "5", "--json"])
        let students = try JSONDecoder().decode([WireJSON].self, from: Data(json.stdout.utf8))
        let distances = students.compactMap { $0["distanceKm"]?.doubleValue }
        #expect(distances.count == students.count && !students.isEmpty)
        #expect(distances == distances.sorted(), "nearest first: \(distances)")
        // Within a radius: exactly the students of the whole list that are that near, nearest first.
        let radius = try bed.run(["students", "--near", "-33.87,151.21", "--radius", "2000", "--json"])
        let within = try JSONDecoder().decode([WireJSON].self, from: Data(radius.stdout.utf8))
        let everyone = try bed.run(["students", "--near", "-33.87,151.21", "--limit", "100", "--json"])
        let near = try JSONDecoder().decode([WireJSON].self, from: Data(everyone.stdout.utf8))
            .filter { ($0["distanceKm"]?.doubleValue ?? .infinity) <= 2000 }
        #expect(!near.isEmpty, "the demo has students within 2,000 km of Sydney")
        #expect(within.map { $0["objectId"] } == near.map { $0["objectId"] }, "\(radius.stdout)")
        let tsv = try bed.run(["students", "--near", "-33.87,151.21", "--limit", "2", "--tsv"])
        #expect(tsv.stdout.split(separator: "\n").first?.hasSuffix("\tdistanceKm") == true)
        let noNear = try bed.run(["students", "--radius", "10"])
        #expect(noNear.status == 64)
    }

    @Test func callPrintsResultsAndErrors() throws {
        let bed = try CLITestBed()
        let ok = try bed.run(["call", "students", #"{"limit":2}"#])
        #expect(ok.status == 0)
        let result = try JSONDecoder().decode(WireJSON.self, from: Data(ok.stdout.utf8))
        if case .array(let students)? = result["students"] { #expect(students.count == 2) } else { Issue.record("no students") }
        let bad = try bed.run(["call", "students", #"{"limit":"two"}"#])
        #expect(bad.status == 1)
        #expect(try JSONDecoder().decode(WireJSON.self, from: Data(bad.stderr.utf8))["data"]?["field"] == .string("limit"))
        #expect(try bed.run(["call", "status", "not json"]).status == 64)
        // A mistyped method is said in words, with the nearest of the daemon's methods, not as the
        // protocol's error object; exit 1, as every error the daemon answers.
        let typo = try bed.run(["call", "stauts"])
        #expect(typo.status == 1)
        #expect(typo.stderr == "onthemap: onthemapd has no method \"stauts\"; did you mean status?\n", "\(typo.stderr)")
        #expect(typo.stdout.isEmpty)
        #expect(try bed.run(["call", "mypn", "{}"]).stderr.hasSuffix("did you mean myPin?\n"))
        let far = try bed.run(["call", "frobnicate"])
        #expect(far.status == 1)
        #expect(far.stderr == "onthemap: onthemapd has no method \"frobnicate\"; `onthemap call rpc.discover` lists them\n", "\(far.stderr)")
    }

    @Test(.enabled(if: TmuxSession.isAvailable, "tmux is not installed (apt-get install tmux)"))
    func passwordPromptOnATerminal() throws {
        let bed = try CLITestBed(login: false)
        // A terminal: the prompt appears, the typed password is not echoed.
        let command = "\(BuiltProducts.path("onthemap")) login --username demo@onthemap.example"
        let terminal = try TmuxSession(command: TmuxSession.reportingExit(command), width: 80, height: 10, environment: bed.environment)
        defer { terminal.tearDown() }
        let (prompted, prompt) = try terminal.waitForScreen { $0.contains { $0.contains("Password:") } }
        #expect(prompted, "\(prompt.joined(separator: "\n"))")
        try terminal.send("onthemap-demo", "Enter")
        let status = try terminal.waitForExit()
        let screen = try terminal.screen().joined(separator: "\n")
        #expect(status == 0, "\(screen)")
        #expect(screen.contains("logged in as Ada Lovelace"), "\(screen)")
        #expect(!screen.contains("onthemap-demo"), "the password was echoed: \(screen)")
    }

    @Test func watchFollowsChangesAndDaemonRestarts() throws {
        let bed = try CLITestBed()
        let watch = try RunningProcess(BuiltProducts.path("onthemap"), ["watch", "--format", "waybar"], environment: bed.environment)
        defer { watch.stop() }
        #expect(watch.waitForLine { $0.contains(#""class":"ok""#) })

        // A change: logging out is seen at once.
        let before = watch.lines.count
        #expect(try bed.run(["logout"]).status == 0)
        #expect(watch.waitForLine(after: before) { $0.contains(#""class":"logged-out""#) })

        // The daemon goes away: the watcher says so, then reconnects when it is back.
        let beforeStop = watch.lines.count
        #expect(bed.daemon.stop() == 0)
        #expect(watch.waitForLine(after: beforeStop) { $0.contains(#""class":"offline""#) })
        try bed.daemon.start()
        let beforeRestart = watch.lines.count
        #expect(watch.waitForLine(after: beforeRestart) { $0.contains(#""class":"logged-out""#) })
    }

    @Test func helpAndCompletions() throws {
        let bed = try CLITestBed(login: false)
        let help = try bed.run(["--help"])
        #expect(help.status == 0)
        if let mismatch = GoldenFile.mismatch(help.stdout, name: "help.txt", testFile: #filePath) {
            Issue.record(Comment(rawValue: mismatch))
        }
        #expect(help.stdout.contains("3 not logged in"))
        for shell in ["bash", "zsh", "fish"] {
            let script = try bed.run(["--generate-completion-script", shell])
            #expect(script.status == 0)
            #expect(script.stdout.contains("students"))
        }
    }
}

@Suite("clients/ examples", .ownThreads)
struct ClientExamplesTests {
    @Test func shellExampleSpeaksTheProtocolWithSocatAndJq() throws {
        let bed = try CLITestBed()
        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("../../clients/shell/onthemap-socat.sh").standardized.path
        let status = try runCommand("/bin/bash", [script, "status"], environment: bed.environment)
        #expect(status.status == 0, "\(status.stderr)")
        #expect(status.stdout.contains("logged in: true  students: 100"))
        let students = try runCommand("/bin/bash", [script, "students", "3"], environment: bed.environment)
        #expect(students.stdout.split(separator: "\n").count == 3)
        _ = try bed.run(["logout"])
        let refused = try runCommand("/bin/bash", [script, "students"], environment: bed.environment)
        #expect(refused.status == 1)
        #expect(refused.stderr.contains("Not logged in"))
        // A socket named by hand with nothing there: how to start a daemon on it.
        var nowhere = bed.environment
        nowhere["ONTHEMAP_SOCKET"] = bed.cacheHome.file("nope.sock")
        let unreachable = try runCommand("/bin/bash", [script, "status"], environment: nowhere)
        #expect(unreachable.status == 2)
        #expect(unreachable.stderr.contains("onthemapd --socket \(bed.cacheHome.file("nope.sock"))"), "\(unreachable.stderr)")
    }
}
