import Foundation
import Hummingbird
import HummingbirdTesting
import OnTheMapModels
import OnTheMapTestSupport
import Testing

/// What other people write never reaches a terminal as control characters (issue 39): every output
/// of `onthemap` that shows a name, a place or a link, run on a pseudo-terminal with `NO_COLOR` (so
/// any ESC in it is the attacker's), against a daemon whose upstream stores anything.
@Suite("Hostile text on a terminal", .ownThreads)
struct HostileOutputTests {
    /// The account's key: its pin is the third record.
    static let accountKey = "42"

    /// (first, last, place, link, uniqueKey), newest first: ESC sequences, BEL, CR and LF, NUL, C1's
    /// CSI (U+009B), bidi overrides and isolates, and polybar's click markup.
    static let records: [(String, String, String, String, String)] = [
        ("Eve\u{1B}[2J\u{1B}[1;31m", "\u{202E}gnp.exe", "Lima\r\nPeru\u{07}", "https://evil.example/\u{1B}]0;pwned\u{07}", "u1"),
        ("Nul\u{0}Byte", "C1\u{9B}31m", "Oslo\u{2066}x\u{2069} %{A1:touch /tmp/pwned:}here%{A}", "https://oslo.example/me", "u2"),
        ("Ada", "Lovelace", "Home\u{1B}[5m\r %{A1:touch /tmp/x:}", "https://ada.example/", accountKey),
        ("Bell\u{07}", "Back\u{08}space\u{7F}", "Tab\there\u{1B}[1A\u{1B}[2K", "https://plain.example/", "u4"),
    ]

    /// Anyone logs in, as account 42, whose profile's names are hostile too; plain@example.com as
    /// account 43, whose names are not.
    static func upstream() -> some ApplicationProtocol {
        let router = Router()
        @Sendable func session(_ key: String) -> Response {
            let body = #")]}'"# + "\n"
                + #"{"account":{"registered":true,"key":""# + key + #""},"session":{"id":"s","expiration":"2099-01-01T00:00:00.000000Z"}}"#
            return Response(status: .ok, body: .init(byteBuffer: ByteBuffer(string: body)))
        }
        router.post("v1/session") { request, _ -> Response in
            let body = String(buffer: try await request.body.collect(upTo: 4096))
            return session(body.contains("plain@example.com") ? "43" : accountKey)
        }
        router.get("v1/session") { _, _ -> Response in session(accountKey) }
        for (key, first, last) in [(accountKey, "Ada\u{1B}[31m", "Love\u{202E}lace\u{9B}2J"), ("43", "Plain", "Name")] {
            router.get("v1/users/\(key)") { _, _ -> Response in
                let profile = WireJSON.object([("first_name", .string(first)), ("last_name", .string(last)), ("key", .string(key))])
                return Response(status: .ok, body: .init(byteBuffer: ByteBuffer(string: profile.serialized)))
            }
        }
        // A write fails, in words that would drive a terminal: a window title, a screen clear, C1's
        // CSI, an override.
        let failedWrite = { @Sendable (_: Request, _: BasicRequestContext) -> Response in
            let said = WireJSON.object([("status", .number(500)), ("error", .string("Oops \u{1B}]0;pwned\u{07}\u{1B}[2J\u{202E}evil\u{9B}31m"))])
            return Response(status: .internalServerError, body: .init(byteBuffer: ByteBuffer(string: said.serialized)))
        }
        router.put("v1/StudentLocation/:id", use: failedWrite)
        router.post("v1/StudentLocation", use: failedWrite)
        router.get("v1/StudentLocation") { request, _ -> Response in
            // `uniqueKey` asks for one account's pins (the daemon's myPin and post).
            let only = request.uri.queryParameters.get("uniqueKey")
            let list = records.enumerated().filter { only == nil || $0.element.4 == only }.map { index, record in
                let updated = "2026-01-01T00:\(59 - index):00.000Z"
                return WireJSON.object([
                    ("createdAt", .string(updated)), ("firstName", .string(record.0)), ("lastName", .string(record.1)),
                    ("latitude", .number(Double(10 + 20 * index))), ("longitude", .number(Double(-120 + 60 * index))),
                    ("mapString", .string(record.2)), ("mediaURL", .string(record.3)), ("objectId", .string("o\(index)")),
                    ("uniqueKey", .string(record.4)), ("updatedAt", .string(updated)),
                ])
            }
            return Response(status: .ok, body: .init(byteBuffer: ByteBuffer(string: WireJSON.object([("results", .array(list))]).serialized)))
        }
        return Application(router: router, configuration: .init(address: .hostname("127.0.0.1", port: 0)))
    }

    @Test func noControlCharacterReachesTheTerminal() async throws {
        try await Self.upstream().test(.live) { server in
            let daemon = try DaemonProcess(apiURL: "http://127.0.0.1:\(try #require(server.port))/v1")
            defer { daemon.tearDown() }
            try await onOwnThread {
                let cache = try TemporaryDirectory(prefix: "onthemap-hostile-cli")
                defer { cache.remove() }
                let environment = [
                    "ONTHEMAP_SOCKET": daemon.socketPath, "XDG_CACHE_HOME": cache.path, "NO_COLOR": "1", "COLUMNS": "",
                    "LINES": "", "LANG": "C.UTF-8", "ONTHEMAP_OPENER": "/bin/true",
                ]
                /// Runs `onthemap arguments` on a terminal; what it showed, checked, and returned.
                func shown(_ arguments: [String], stdin: String? = nil, tabs: Bool = false, status: Int32 = 0,
                           sourceLocation: SourceLocation = #_sourceLocation) throws -> String {
                    let run = try PseudoTerminal.run(BuiltProducts.path("onthemap"), arguments, environment: environment, stdin: stdin)
                    #expect(run.status == status, "\(arguments): \(run.text)", sourceLocation: sourceLocation)
                    let controls = PseudoTerminal.controls(in: run.output, tabs: tabs)
                    #expect(controls.isEmpty, "\(arguments) showed \(controls.map(\.what)) in \(run.text.debugDescription)", sourceLocation: sourceLocation)
                    return run.text
                }

                let login = try shown(["login", "--username", "ada@example.com", "--password-stdin"], stdin: "any password\n")
                #expect(login.hasPrefix("logged in as Ada"), "\(login.debugDescription)")

                let status = try shown(["status"])
                #expect(status.contains("your pin: Home"), "\(status.debugDescription)")
                let i3blocks = try shown(["status", "--format", "i3blocks"])
                #expect(i3blocks.contains("Home"), "\(i3blocks.debugDescription)")
                let waybar = try shown(["status", "--format", "waybar"])
                #expect(waybar.contains("Home"), "\(waybar.debugDescription)")
                // polybar: no tag but ours (the colour): polybar reads every `%{` as a tag.
                // A line that fails is reported and the checks after it still run.
                func expectOnlyOurTags(_ line: String, sourceLocation: SourceLocation = #_sourceLocation) {
                    guard let inner = line.wholeMatch(of: /%\{F#[0-9a-f]{6}\}(.*)%\{F-\}/)?.1 else {
                        Issue.record("not one colour tag around the text: \(line.debugDescription)", sourceLocation: sourceLocation)
                        return
                    }
                    #expect(!inner.contains("%{"), "a tag of the place's own: \(line.debugDescription)", sourceLocation: sourceLocation)
                }
                expectOnlyOurTags(try shown(["status", "--format", "polybar"]).trimmingCharacters(in: .newlines))
                // watch, as polybar runs it (`tail = true`, a pipe): the same line, no tag of the place's own.
                let watch = try RunningProcess(BuiltProducts.path("onthemap"), ["watch", "--format", "polybar"], environment: environment)
                defer { watch.stop() }
                #expect(watch.waitForLine { $0.contains("Home") }, "\(watch.lines)")
                for line in watch.lines {
                    expectOnlyOurTags(line)
                    #expect(PseudoTerminal.controls(in: Array(line.utf8), tabs: false).isEmpty, "\(line.debugDescription)")
                }

                let table = try shown(["students"])
                for visible in ["Lima", "Oslo", "Home", "Tab here"] { #expect(table.contains(visible), "\(visible): \(table.debugDescription)") }
                #expect(table.split(separator: "\n").count == Self.records.count + 1, "one line a student: \(table.debugDescription)")

                // open N's messages quote the student of the table just shown: a link the daemon
                // blanked (it held ESC and BEL, and says so), and one opened.
                let refused = try shown(["open", "1"], status: 1)
                #expect(refused.contains("Eve") && refused.contains("link: it holds a hidden character (U+001B)"), "\(refused.debugDescription)")
                let opened = try shown(["open", "2"])
                #expect(opened.contains("opened https://oslo.example/me"), "\(opened.debugDescription)")

                // What the person typed is quoted back as any other text is shown (a bidi override
                // dropped), and a control character pasted with it is refused, named, never sent: an
                // ESC split "Pa^[]0;x^Gris" into words that matched another place.
                let search = try shown(["students", "--search", "zz\u{202E}yy"])
                #expect(search.contains("no student matches \"zzyy\""), "\(search.debugDescription)")
                for arguments in [["students", "--search", "zz\u{1B}[2J"], ["open", "zz\u{1B}[2J"], ["geocode", "Pa\u{1B}]0;x\u{7}ris"]] {
                    let refused = try shown(arguments, status: 64)
                    #expect(refused.contains("holds a control character (U+001B): type it again rather than paste it."), "\(refused.debugDescription)")
                }

                let tsv = try shown(["students", "--tsv"], tabs: true)
                let lines = tsv.split(separator: "\n", omittingEmptySubsequences: false).dropLast()
                #expect(lines.count == Self.records.count + 1, "one record a line: \(tsv.debugDescription)")
                #expect(lines.allSatisfy { $0.split(separator: "\t", omittingEmptySubsequences: false).count == lines[0].split(separator: "\t").count })

                let map = try shown(["map", "--width", "100", "--height", "16"])
                #expect(map.contains("Home") && map.contains("Lima"), "the legend: \(map.debugDescription)")

                // --json keeps the data exact, and what a terminal would obey escaped (C1, bidi).
                for format in [["students", "--json"], ["status", "--json"], ["students", "--geojson"], ["status", "--format", "json"]] {
                    let json = try shown(format)
                    #expect(json.contains(#"\u202e"#), "\(format): \(json.debugDescription)")
                }
                let exact = try JSONSerialization.jsonObject(with: Data(try shown(["students", "--json"]).utf8)) as? [[String: Any]]
                #expect(exact?.first?["lastName"] as? String == "\u{202E}gnp.exe", "\(String(describing: exact?.first))")

                let mine = try shown(["mypin"])
                #expect(mine.hasPrefix("Home"), "\(mine.debugDescription)")

                // No pin can carry this account's name (ESC in it): said before anything is looked up
                // or sent, with what to do, since no command here changes it.
                let unpostable = try shown(["post", "Paris", "https://ada.example/", "--yes", "--overwrite"], status: 1)
                #expect(
                    unpostable.contains("your account's first name contains a control character (U+001B)")
                        && unpostable.contains("ask whoever runs the server to correct it") && !unpostable.contains("remove it"),
                    "\(unpostable.debugDescription)")

                // The upstream's own words, quoted in the error a command prints.
                _ = try shown(["login", "--force", "--username", "plain@example.com", "--password-stdin"], stdin: "any password\n")
                let failed = try shown(["post", "Paris", "https://ada.example/", "--yes", "--overwrite"], status: 1)
                #expect(failed.contains("failed (HTTP 500): Oops") && failed.contains("evil"), "\(failed.debugDescription)")
            }
        }
    }
}
