import Foundation
import OnTheMapModels
import OnTheMapTestSupport
import Testing

/// The rough edges of daily use (#31): empty lists, the place a command used, ambiguous names and
/// places, what is posted, the words of every error, and what logged-out, offline and failed look
/// like. The real client against the real daemon and server.
@Suite("Daily use", .ownThreads)
struct DailyUseTests {
    /// Two decimals, both written: "(37.22, -93.30)".
    static var coordinates: Regex<Substring> { #/\(-?\d+\.\d\d, -?\d+\.\d\d\)/# }

    @Test func emptyListsSayNothingMatchedOnStderrAndExitZero() throws {
        let bed = try CLITestBed()
        let search = try bed.run(["students", "--search", "zzzz"])
        #expect(search.status == 0)
        #expect(search.stdout.isEmpty, "no header alone: \(search.stdout)")
        #expect(search.stderr == "no student matches \"zzzz\"\n")
        #expect(try bed.run(["students", "--search", "zzzz", "--json"]).stdout == "[]\n")
        #expect(try bed.run(["students", "--search", "zzzz", "--tsv"]).stdout.split(separator: "\n").count == 1)

        // --near names the place it used, and the radius it found empty.
        let near = try bed.run(["students", "--near", "Ulaanbaatar", "--radius", "10"])
        #expect(near.status == 0, "\(near.stderr)")
        #expect(near.stdout.isEmpty)
        let lines = near.stderr.split(separator: "\n").map(String.init)
        #expect(lines.count == 2, "\(near.stderr)")
        // The gazetteer's name for the place, not the text typed.
        #expect(lines.first?.hasPrefix("near Ulan Bator, Mongolia (") == true, "\(near.stderr)")
        #expect(lines.first?.contains(Self.coordinates) == true, "\(near.stderr)")
        #expect(lines.last == "no student within 10 km of Ulan Bator, Mongolia")

        // --limit 0 counts every student, not the daemon's 100 cached (the demo server has more).
        let everyone = try #require(
            JSONSerialization.jsonObject(with: Data(try bed.run(["students", "--limit", "100000", "--json"]).stdout.utf8)) as? [Any]).count
        #expect(everyone > 100)
        let zero = try bed.run(["students", "--limit", "0"])
        #expect(zero.status == 0 && zero.stdout.isEmpty)
        #expect(zero.stderr == "no students shown: --limit 0 (\(everyone) match)\n", "\(zero.stderr)")

        // More match than --limit shows: said on stderr, with how to see them all.
        let everyMatch = try bed.run(["students", "--search", "a", "--limit", "1000", "--json"])
        let matching = try #require(JSONSerialization.jsonObject(with: Data(everyMatch.stdout.utf8)) as? [Any]).count
        #expect(matching > 3 && everyMatch.stderr.isEmpty, "\(everyMatch.stderr)")
        let cut = try bed.run(["students", "--search", "a", "--limit", "3"])
        #expect(cut.status == 0 && cut.stdout.split(separator: "\n").count == 4, "\(cut.stdout)")
        #expect(cut.stderr == "onthemap: 3 of \(matching) matches shown; --limit \(matching) shows them all\n", "\(cut.stderr)")
        // Without a search, the newest five are what was asked for; with --near alone, the five nearest.
        #expect(try bed.run(["students", "--limit", "5", "--tsv"]).stderr.isEmpty)
        let nearest = try bed.run(["students", "--near", "48.85,2.35", "--limit", "5", "--tsv"])
        #expect(nearest.status == 0 && nearest.stdout.split(separator: "\n").count == 6, "\(nearest.stdout)")
        #expect(!nearest.stderr.contains("matches shown"), "\(nearest.stderr)")
        let within = try bed.run(["students", "--near", "48.85,2.35", "--radius", "20100", "--limit", "5", "--tsv"])
        #expect(within.stderr.contains(#/onthemap: 5 of (\d+) matches shown; --limit \1 shows them all/#), "\(within.stderr)")

        // A negative limit reaches the range check (it read as a missing value).
        let negative = try bed.run(["students", "--limit", "-3"])
        #expect(negative.status == 64)
        #expect(negative.stderr.contains("--limit must be from 0 to 100000."), "\(negative.stderr)")
    }

    @Test func postStoresThePlaceItFoundNamesItAndWritesEvenDecimals() throws {
        let bed = try CLITestBed()
        // --yes: the best match, named on stderr; the pin shows its name, not the text typed.
        let posted = try bed.run(["post", "springfield", "example.com/me", "--yes"])
        #expect(posted.status == 0, "\(posted.stderr)")
        let said = posted.stderr.split(separator: "\n").map(String.init)
        #expect(said.first == "link: https://example.com/me", "\(posted.stderr)")
        #expect(said.last?.hasPrefix("place: Springfield, ") == true, "\(posted.stderr)")
        #expect(posted.stdout.hasPrefix("pin posted at Springfield, "), "\(posted.stdout)")
        #expect(posted.stdout.contains(Self.coordinates), "\(posted.stdout)")
        let pin = try WireCoding.decoder().decode(StudentLocation.self, from: Data(try bed.run(["mypin", "--json"]).stdout.utf8))
        #expect(pin.mapString.hasPrefix("Springfield, ") && pin.mapString != "springfield", "\(pin.mapString)")
        #expect(pin.mediaURL == "https://example.com/me")
        let mine = try bed.run(["mypin"])
        #expect(mine.stdout.contains(Self.coordinates), "\(mine.stdout)")

        // Your own row is marked in the table, and only yours.
        let table = try bed.run(["students", "--limit", "200"])
        let marked = table.stdout.split(separator: "\n").filter { $0.contains("(you)") }
        #expect(marked.count == 1 && marked.first?.contains("https://example.com/me") == true, "\(marked)")

        // Nothing to post: said before anything is sent.
        let noPlace = try bed.run(["post", " ", "https://example.com/me", "--yes"])
        #expect(noPlace.status == 64)
        #expect(noPlace.stderr.hasPrefix("onthemap: give the place where you are"), "\(noPlace.stderr)")
        #expect(!noPlace.stderr.contains("Invalid params"))
        // (--overwrite: without it, the pin posted above is the refusal, said before any place is looked up.)
        let nowhere = try bed.run(["post", "Xyzzyville", "https://example.com/me", "--yes", "--overwrite"])
        #expect(nowhere.status == 1)
        #expect(nowhere.stderr == "onthemap: no place matches \"Xyzzyville\": try \"City, Country\"\n")
    }

    /// A pin posted is kept as a refreshed list is: a daemon restarted before its next refresh shows
    /// it, in status and in the list, not the pin it replaced.
    @Test func aPinPostedSurvivesARestartOfTheDaemon() throws {
        let bed = try CLITestBed()
        #expect(try bed.run(["post", "Oslo, Norway", "https://ada.example/oslo", "--yes", "--overwrite"]).status == 0)
        #expect(try bed.run(["post", "Lima, Peru", "https://ada.example/lima", "--yes", "--overwrite"]).status == 0)
        #expect(bed.daemon.stop() == 0)
        try bed.daemon.start()
        let status = try bed.run(["status"])
        #expect(status.stdout.contains("your pin: Lima, Peru"), "\(status.stdout)")
        let mine = try bed.run(["students", "--tsv"]).stdout.split(separator: "\n").filter { $0.contains("ada.example/") }
        #expect(mine.count == 1 && mine[0].contains("Lima, Peru"), "\(mine)")
    }

    /// A hung daemon (SIGSTOP: it accepts connections and never answers) does not hold a status bar's
    /// poll for the minute an upstream request may take: `status` gives up after its few seconds, the
    /// bar shows offline, and the words say what happened and what to do.
    @Test func aHungDaemonIsOfflineToTheBarsNotAMinuteOfSilence() throws {
        let bed = try CLITestBed(login: false)
        bed.daemon.signal(SIGSTOP)
        defer { bed.daemon.signal(SIGCONT) }
        let bar = try bed.run(["status", "--format", "json"])
        #expect(bar.status == 0 && bar.stdout.contains(#""offline":true"#), "\(bar.stdout)\(bar.stderr)")
        #expect(bar.stdout.contains("did not answer within 5 s: it is hung or very busy"), "\(bar.stdout)")
        let plain = try bed.run(["status"])
        #expect(plain.status == 2, "\(plain.stderr)")
        // The daemon was started by hand (no systemd here): the advice is the command that ends it.
        #expect(
            plain.stderr.contains("did not answer within 5 s: it is hung or very busy; if it stays so, end it with `kill \(bed.daemon.pid)` (`kill -9 \(bed.daemon.pid)` if it stays) and start it again"),
            "\(plain.stderr)")
    }

    /// A bar that keeps `watch` running sees a hung daemon too: it sends no news, so after a quiet
    /// half-minute `watch` asks for the status, and with no answer within 5 s the bar says it is
    /// not answering (it stayed green while `status` said offline); the answer that comes once the
    /// daemon runs again makes it green again. (It waits that half-minute.)
    @Test func watchSeesAHungDaemon() throws {
        let bed = try CLITestBed()
        let watch = try RunningProcess(BuiltProducts.path("onthemap"), ["watch", "--format", "waybar"], environment: bed.environment)
        defer { watch.stop() }
        #expect(watch.waitForLine { $0.contains(#""class":"ok""#) }, "\(watch.lines)")
        bed.daemon.signal(SIGSTOP)
        let resumed = { bed.daemon.signal(SIGCONT) }
        defer { resumed() }
        #expect(
            watch.waitForLine(timeout: 90) { $0.contains(#""class":"offline""#) && $0.contains("onthemapd is not answering") },
            "\(watch.lines)")
        let offline = watch.lines.count
        resumed()
        #expect(watch.waitForLine(after: offline, timeout: 30) { $0.contains(#""class":"ok""#) }, "green again: \(watch.lines)")
    }

    /// `onthemap post ARGUMENTS` (shell words) on a terminal under tmux, once it asks which of the
    /// places found is meant; the screen then. The caller tears the session down.
    static func postAskingWhichPlace(
        _ bed: CLITestBed, _ arguments: String, width: Int = 120, height: Int = 20, sourceLocation: SourceLocation = #_sourceLocation
    ) throws -> (TmuxSession, [String]) {
        let command = "\(BuiltProducts.path("onthemap")) post \(arguments)"
        let terminal = try TmuxSession(command: TmuxSession.reportingExit(command), width: width, height: height, environment: bed.environment)
        do {
            let (asked, screen) = try terminal.waitForScreen(timeout: 30) { $0.contains { $0.contains("which one?") } }
            #expect(asked, "\(screen.joined(separator: "\n"))", sourceLocation: sourceLocation)
            return (terminal, screen)
        } catch {
            terminal.tearDown()
            throw error
        }
    }

    /// Ctrl-D at a question ends it on a line of its own: "nothing posted" does not continue the
    /// question's line.
    @Test(.enabled(if: TmuxSession.isAvailable, "tmux is not installed (apt-get install tmux)"))
    func endOfInputAtAQuestionEndsItsLine() throws {
        let bed = try CLITestBed()
        let (terminal, _) = try Self.postAskingWhichPlace(bed, "Springfield https://ada.example")
        defer { terminal.tearDown() }
        try terminal.send("C-d")
        let (ended, screen) = try terminal.waitForScreen(timeout: 30) { $0.contains { $0.hasPrefix("onthemap: nothing posted") } }
        #expect(ended, "\(screen.joined(separator: "\n"))")
    }

    /// A control character typed (pasted) into a place is refused before it is looked up, named, and
    /// never echoed: no ESC reaches the terminal. A bidi override is quoted back cleaned.
    @Test func aPlaceTypedWithAControlCharacterIsRefusedAndNamed() throws {
        let bed = try CLITestBed()
        let result = try bed.run(["geocode", "Par\u{1B}[31mis"])
        #expect(result.status == 64, "\(result.stderr)")
        #expect(
            !result.stderr.contains("\u{1B}") && result.stderr.contains("onthemap: the place holds a control character (U+001B)"),
            "\(result.stderr.debugDescription)")
        let bidi = try bed.run(["geocode", "Qxzw\u{202E}vtplk"])
        #expect(bidi.status == 1, "\(bidi.stderr)")
        #expect(bidi.stderr.contains("no place matches \"Qxzwvtplk\""), "\(bidi.stderr.debugDescription)")
    }

    /// On a terminal, replacing a pin asks about what would change: the place, or only the link.
    @Test(.enabled(if: TmuxSession.isAvailable, "tmux is not installed (apt-get install tmux)"))
    func theOverwriteQuestionSaysWhatWouldChange() throws {
        let bed = try CLITestBed()
        #expect(try bed.run(["post", "Lima, Peru", "https://ada.example/old", "--yes", "--overwrite"]).status == 0)
        for (link, question) in [
            ("https://ada.example/new", #"Your pin at "Lima, Peru" links to "https://ada.example/old". Link it to "https://ada.example/new" instead?"#),
            ("https://ada.example/old", #"Your pin is already at "Lima, Peru" with this link. Post it again, as your newest?"#),
        ] {
            // One place is found (the city and the region of Lima read the same: one candidate), so
            // the question about the pin comes first.
            let command = "\(BuiltProducts.path("onthemap")) post 'Lima, Peru' \(link)"
            let terminal = try TmuxSession(command: TmuxSession.reportingExit(command), width: 160, height: 20, environment: bed.environment)
            defer { terminal.tearDown() }
            let (asked, screen) = try terminal.waitForScreen(timeout: 30) { $0.contains { $0.contains(question) } }
            #expect(asked, "\(screen.joined(separator: "\n"))")
            try terminal.send("n", "Enter")
            #expect(try terminal.waitForExit(timeout: 30) == 1)
        }
    }

    /// One place found and a pin of yours elsewhere: one question, whether to move it there (it asked
    /// "Post your pin there?" and then "Move it?"); yes moves it.
    @Test(.enabled(if: TmuxSession.isAvailable, "tmux is not installed (apt-get install tmux)"))
    func movingAPinToOnePlaceIsOneQuestion() throws {
        let bed = try CLITestBed()
        #expect(try bed.run(["post", "Lima, Peru", "https://ada.example/lima", "--yes", "--overwrite"]).status == 0)
        let command = "\(BuiltProducts.path("onthemap")) post 'Paris, France' https://ada.example/paris"
        let terminal = try TmuxSession(command: TmuxSession.reportingExit(command), width: 140, height: 20, environment: bed.environment)
        defer { terminal.tearDown() }
        let (asked, screen) = try terminal.waitForScreen(timeout: 30) { $0.contains { $0.contains(#"You already have a pin at "Lima, Peru". Move it?"#) } }
        #expect(asked, "\(screen.joined(separator: "\n"))")
        #expect(!screen.contains { $0.contains("Post your pin there?") }, "one question: \(screen.joined(separator: "\n"))")
        try terminal.send("y", "Enter")
        #expect(try terminal.waitForExit(timeout: 30) == 0)
        #expect(try terminal.screen(history: true).contains { $0.hasPrefix("pin moved to Paris, Ile-de-France, France") })
    }

    /// The places offered fit a narrow terminal: each on one line, its coordinates whole (at 60
    /// columns they wrapped inside them, "(42.10, -72." and "59)  a town or city" on the next line).
    @Test(.enabled(if: TmuxSession.isAvailable, "tmux is not installed (apt-get install tmux)"))
    func thePlacesOfferedFitANarrowTerminal() throws {
        let bed = try CLITestBed()
        let (terminal, question) = try Self.postAskingWhichPlace(bed, "Springfield https://ada.example", width: 60, height: 30)
        defer { terminal.tearDown() }
        let offered = question.filter { $0.hasPrefix("  ") && $0.contains("Springfield") }
        #expect(offered.count >= 3, "\(question.joined(separator: "\n"))")
        for line in offered {
            #expect(line.contains(/\ \ \(-?[0-9]+\.[0-9]{2}, -?[0-9]+\.[0-9]{2}\)/), "coordinates whole on the line: \(line)")
        }
        #expect(!question.contains { $0.hasPrefix("59)") || $0.hasPrefix("a town") }, "\(question.joined(separator: "\n"))")
    }

    /// A question and the refusal after it break between words at 60 columns, where the terminal
    /// broke them inside one ("Springfield, Massachusetts, Unite" / "d States").
    @Test(.enabled(if: TmuxSession.isAvailable, "tmux is not installed (apt-get install tmux)"))
    func aQuestionAndItsAnswerBreakBetweenWords() throws {
        let bed = try CLITestBed()
        let moved = try bed.run(["post", "Springfield, Massachusetts", "https://ada.example", "--yes", "--overwrite"])
        #expect(moved.status == 0, "\(moved.stderr)")
        let place = "Springfield, Massachusetts, United States"
        let command = "\(BuiltProducts.path("onthemap")) post Köln https://ada.example/k"
        let terminal = try TmuxSession(command: TmuxSession.reportingExit(command), width: 60, height: 20, environment: bed.environment)
        defer { terminal.tearDown() }
        let (asked, screen) = try terminal.waitForScreen(timeout: 30) { $0.contains { $0.hasSuffix("[y/N]") } }
        #expect(asked, "\(screen.joined(separator: "\n"))")
        try terminal.send("n", "Enter")
        #expect(try terminal.waitForExit(timeout: 30) == 1)
        let lines = try terminal.screen(history: true).map { $0.trimmingCharacters(in: .whitespaces) }
        /// The lines from the one that begins `first` to the one that holds `last`, joined by spaces:
        /// the text as written when every break fell between words.
        func joined(from first: String, to last: String) -> String {
            guard let start = lines.firstIndex(where: { $0.hasPrefix(first) }),
                let end = lines[start...].firstIndex(where: { $0.contains(last) })
            else { return lines.joined(separator: "\n") }
            return lines[start...end].joined(separator: " ")
        }
        #expect(joined(from: "You already have", to: "[y/N]") == "You already have a pin at \"\(place)\". Move it? [y/N] n", "\(lines)")
        #expect(joined(from: "onthemap: nothing posted", to: "States\"") == "onthemap: nothing posted: your pin stays at \"\(place)\"", "\(lines)")
        #expect(lines.allSatisfy { $0.count <= 60 })
    }

    /// On a terminal, several matching places are offered; the one picked is the one posted.
    @Test(.enabled(if: TmuxSession.isAvailable, "tmux is not installed (apt-get install tmux)"))
    func postOffersThePlacesThatMatchOnATerminal() throws {
        let bed = try CLITestBed()
        let (terminal, question) = try Self.postAskingWhichPlace(bed, "Springfield https://ada.example", width: 100, height: 30)
        defer { terminal.tearDown() }
        let offered = question.joined(separator: "\n")
        #expect(offered.contains("places matching \"Springfield\":"), "\(offered)")
        #expect(offered.contains("Springfield, Missouri"), "the alternatives are listed: \(offered)")
        let choice = try #require(offered.firstMatch(of: /(\d+)  Springfield, Illinois/)?.1, "\(offered)")
        try terminal.send(String(choice), "Enter")
        let status = try terminal.waitForExit(timeout: 30)
        let screen = try terminal.screen(history: true).joined(separator: "\n")
        #expect(status == 0, "\(screen)")
        #expect(screen.contains("pin posted at Springfield, Illinois, United States ("), "\(screen)")
        let pin = try WireCoding.decoder().decode(StudentLocation.self, from: Data(try bed.run(["mypin", "--json"]).stdout.utf8))
        #expect(pin.mapString == "Springfield, Illinois, United States")
    }

    @Test func aNameSeveralStudentsMatchListsThemAndOpensNone() throws {
        let bed = try CLITestBed()
        let all = try WireCoding.decoder().decode([StudentLocation].self, from: Data(try bed.run(["students", "--json"]).stdout.utf8))
        // A first name several students share (the demo data has namesakes).
        let counts = Dictionary(grouping: all, by: \.firstName).filter { Set($0.value.map(\.mediaURL)).count > 1 }
        let name = try #require(counts.max { $0.value.count < $1.value.count }).key
        // Every student the daemon's search finds, a student's repeated link counted once.
        let found = try WireCoding.decoder().decode(
            [StudentLocation].self, from: Data(try bed.run(["students", "--search", name, "--limit", "20", "--json"]).stdout.utf8))
        let distinct = Set(found.map { [$0.fullName, $0.mediaURL] })
        let opened = try bed.run(["open", name], extra: ["ONTHEMAP_OPENER": "/bin/echo"])
        #expect(opened.status == 1, "\(opened.stderr)")
        #expect(opened.stdout.isEmpty, "opened something: \(opened.stdout)")
        #expect(opened.stderr.hasPrefix("onthemap: \(distinct.count) students match \"\(name)\""), "\(opened.stderr)")
        for student in found { #expect(opened.stderr.contains(student.mediaURL), "\(student.mediaURL) not listed") }
        // The list is the last table: `open 2` opens its second row.
        let second = try bed.run(["open", "2"], extra: ["ONTHEMAP_OPENER": "/bin/echo"])
        #expect(second.status == 0)
        let listed = opened.stderr.split(separator: "\n").first { $0.trimmingCharacters(in: .whitespaces).hasPrefix("2 ") }
        #expect(listed.map { $0.contains(second.stdout.trimmingCharacters(in: .whitespacesAndNewlines)) } == true, "\(second.stdout)")

        // Nobody by that name: exit 1 with what to do.
        let nobody = try bed.run(["open", "Zebedee Quux"], extra: ["ONTHEMAP_OPENER": "/bin/echo"])
        #expect(nobody.status == 1 && nobody.stderr.contains("no student matches \"Zebedee Quux\""), "\(nobody.stderr)")
    }

    @Test func messagesAreInWordsWithWhatToDo() throws {
        let bed = try CLITestBed()
        // A params argument that is not JSON: the usage of `call`, not the whole program's.
        let bad = try bed.run(["call", "students", "{bad json"])
        #expect(bad.status == 64)
        #expect(bad.stderr.contains("PARAMS is not JSON"), "\(bad.stderr)")
        #expect(bad.stderr.contains("onthemap call"), "\(bad.stderr)")
        #expect(!bad.stderr.contains("<subcommand>"), "\(bad.stderr)")
        // The protocol's words do not reach a person.
        let noQuery = try bed.run(["geocode", ""])
        #expect(noQuery.status == 64 && !noQuery.stderr.contains("Invalid params"), "\(noQuery.stderr)")
        let nothing = try bed.run(["geocode", "Xyzzyville"])
        #expect(nothing.status == 1 && nothing.stderr == "onthemap: no place matches \"Xyzzyville\": try \"City, Country\"\n")
        // Coordinates are their own answer, as --near takes them (they were "no place matches").
        let point = try bed.run(["geocode", "40.7,-74"])
        #expect(point.status == 0 && point.stdout == "40.7, -74  (40.70, -74.00)  coordinates, taken as they are\n", "\(point.stdout)\(point.stderr)")
        let pointJSON = try JSONSerialization.jsonObject(with: Data(try bed.run(["geocode", "40.7,-74", "--json"]).stdout.utf8)) as? [[String: Any]]
        #expect(pointJSON?.first?["latitude"] as? Double == 40.7 && pointJSON?.first?["precision"] as? String == "coordinates", "\(String(describing: pointJSON))")
        #expect(try bed.run(["geocode", "95,200"]).status == 64)
        // A place's kind in words people use: Paris is "a town or city", never the geocoder's "locality".
        let paris = try bed.run(["geocode", "Paris, France"])
        #expect(paris.status == 0 && paris.stdout.contains("a town or city") && !paris.stdout.contains("locality"), "\(paris.stdout)")
        // Each place once, as the web page's /v1/geocode lists them: the city and the region of Lima
        // both read "Lima, Peru", one candidate a person cannot tell from the other.
        let lima = try bed.run(["geocode", "Lima"])
        let limaLabels = lima.stdout.split(separator: "\n").map { $0.components(separatedBy: "  (").first ?? "" }
        #expect(lima.status == 0 && limaLabels.filter { $0 == "Lima, Peru" }.count == 1, "\(lima.stdout)")

        // A wrong password says what to do; a second logout says there was nothing to end.
        let wrong = try bed.run(["login", "--force", "--username", "demo@onthemap.example", "--password-stdin"], stdin: "nope\n")
        #expect(wrong.status == 1)
        #expect(wrong.stderr.contains("check the email and password"), "\(wrong.stderr)")
        #expect(try bed.run(["logout"]).stderr == "logged out\n")
        #expect(try bed.run(["logout"]).stderr == "already logged out\n")
        // Logged out, the status has no "students: 0, refreshed —".
        let status = try bed.run(["status"])
        #expect(status.stdout.hasPrefix("logged out: run `onthemap login`\n"))
        #expect(!status.stdout.contains("students:"), "\(status.stdout)")

        // Udacity's sign-up page is no use to a daemon on a self-hosted server.
        let signup = try bed.run(["signup"], extra: ["ONTHEMAP_OPENER": "/bin/echo"])
        #expect(signup.status == 1 && signup.stdout.isEmpty)
        #expect(signup.stderr.contains("onthemap-server user add"), "\(signup.stderr)")
    }

    /// Five wrong passwords pause the account for a minute, said once and in words.
    @Test func aRateLimitSaysTheWaitOnceInWords() throws {
        let bed = try CLITestBed(login: false)
        for _ in 0..<5 {
            #expect(try bed.run(["login", "--username", "demo@onthemap.example", "--password-stdin"], stdin: "nope\n").status == 1)
        }
        let limited = try bed.run(["login", "--username", "demo@onthemap.example", "--password-stdin"], stdin: "onthemap-demo\n")
        #expect(limited.status == 1)
        // What is left of the minute: "1 minute", or seconds when the attempts took a moment.
        #expect(
            limited.stderr.wholeMatch(of: #/onthemap: too many attempts: try again in (1 minute|[1-5]?\d seconds?)\.\n/#) != nil,
            "\(limited.stderr)")
    }

    @Test func offlineServerAndFailedRefresh() throws {
        let bed = try CLITestBed()
        #expect(try bed.run(["post", "Lima, Peru", "https://ada.example", "--yes"]).status == 0)
        bed.server.stopServer()
        // Your pin as last seen, said to be so.
        let mine = try bed.run(["mypin"])
        #expect(mine.status == 0, "\(mine.stderr)")
        #expect(mine.stdout.hasPrefix("Lima, Peru  ("), "\(mine.stdout)")
        #expect(mine.stderr.contains("as onthemapd last saw it"), "\(mine.stderr)")
        // A refresh asked for and failed: the list as it was, and exit status 1.
        let refresh = try bed.run(["students", "--refresh", "--limit", "3"])
        #expect(refresh.status == 1, "\(refresh.stderr)")
        #expect(refresh.stdout.split(separator: "\n").count == 4, "the list as it was: \(refresh.stdout)")
        #expect(refresh.stderr.contains("the refresh failed ("), "\(refresh.stderr)")
    }

    /// On a terminal `watch` prints a sentence a person reads, not the status JSON (five wrapped
    /// lines at 80 columns).
    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/script"), "needs script(1) for a terminal (bsdutils)"))
    func watchOnATerminalPrintsSentences() throws {
        let bed = try CLITestBed()
        // script(1) runs it on a pseudo-terminal of its own and copies what it prints.
        let watch = try RunningProcess(
            "/usr/bin/script", ["-qfec", "'\(BuiltProducts.path("onthemap"))' watch", "/dev/null"], environment: bed.environment)
        defer { watch.stop() }
        #expect(watch.waitForLine { $0.hasPrefix("100 newest students; ") }, "\(watch.lines)")
        #expect(try bed.run(["logout"]).status == 0)
        // The terminal ends lines with "\r\n", one Character: what was printed is one "line" here.
        #expect(watch.waitForLine { $0.contains("refreshed just now\r\nlogged out: run `onthemap login`") }, "\(watch.lines)")
        #expect(!watch.lines.contains { $0.contains("{") }, "no JSON on a terminal: \(watch.lines)")
    }

    /// A bar that keeps `watch` running shows the list's age as it grows, not as it was at the last
    /// change: a quiet minute later, the tooltip says "refreshed 1 min ago". (It waits that minute.)
    @Test func watchShowsTheAgeAsItGrows() throws {
        let bed = try CLITestBed()
        #expect(try bed.run(["refresh"]).status == 0)
        let watch = try RunningProcess(BuiltProducts.path("onthemap"), ["watch", "--format", "waybar"], environment: bed.environment)
        defer { watch.stop() }
        #expect(watch.waitForLine { $0.contains("refreshed just now") }, "\(watch.lines)")
        #expect(watch.waitForLine(timeout: 150) { $0.contains("refreshed 1 min ago") }, "\(watch.lines)")
    }

    /// `watch` prints a line per change: not two that differ only in the daemon's uptime.
    @Test func watchPrintsEachChangeOnce() throws {
        let bed = try CLITestBed()
        let watch = try RunningProcess(BuiltProducts.path("onthemap"), ["watch"], environment: bed.environment)
        defer { watch.stop() }
        #expect(watch.waitForLine { $0.hasPrefix("{") && $0.contains(#""loggedIn":true"#) }, "JSON when not on a terminal")
        for _ in 0..<3 { #expect(try bed.run(["refresh"]).status == 0) }
        Thread.sleep(forTimeInterval: 1)
        let lines = watch.lines.map { line -> String in
            guard var value = try? JSONDecoder().decode(WireJSON.self, from: Data(line.utf8)), case .object(let members) = value else { return line }
            value = .object(members.filter { $0.0 != "uptime" })
            return value.serialized
        }
        for (previous, next) in zip(lines, lines.dropFirst()) {
            #expect(previous != next, "two lines for one change:\n\(previous)\n\(next)")
        }
    }
}
