import Foundation
import Hummingbird
import HummingbirdTesting
import OnTheMapModels
import OnTheMapRPC
import OnTheMapTestSupport
import Testing

/// Links and names are data, never commands (#32.1, #32.2): whatever students posted upstream,
/// `open` hands the opener an http(s) URL or nothing, naming the student it refused; and no name —
/// a tab, a newline, a NUL, 10 KB — moves a link to another row of the last table.
@Suite("Hostile links and names", .ownThreads)
struct HostileLinkTests {
    static let hostileLinks = [
        "file:///etc/passwd", "javascript:alert(document.domain)", "data:text/html,<script>x</script>", "ssh://evil.example",
        " JaVaScRiPt:alert(1)", "--manual",
    ]
    static let hostileNames = ["Tab\tfile:///etc/shadow", "New\nLine", "Nul\u{0}Byte", String(repeating: "x", count: 10_000)]

    /// The upstream's students: H0… with the hostile links, N0… with the hostile names (each with a
    /// link of its own), and one plain student; newest first in that order.
    static let records: [(first: String, link: String)] =
        hostileLinks.enumerated().map { ("H\($0.offset)", $0.element) }
        + hostileNames.enumerated().map { ($0.element, "https://n\($0.offset).example/page") }
        + [("Plain", "https://plain.example/")]

    /// Logs anyone in and lists `records`, as an upstream that stores any link would.
    private static func upstream(_ records: [(first: String, link: String)] = records) -> some ApplicationProtocol {
        let router = Router()
        let session = #")]}'"# + "\n" + #"{"account":{"registered":true,"key":"42"},"session":{"id":"s","expiration":"2099-01-01T00:00:00.000000Z"}}"#
        router.post("v1/session") { _, _ -> Response in Response(status: .ok, body: .init(byteBuffer: ByteBuffer(string: session))) }
        router.get("v1/session") { _, _ -> Response in Response(status: .ok, body: .init(byteBuffer: ByteBuffer(string: session))) }
        router.get("v1/users/42") { _, _ -> Response in
            Response(status: .ok, body: .init(byteBuffer: ByteBuffer(string: #"{"first_name":"Ada","last_name":"Lovelace","key":"42"}"#)))
        }
        router.get("v1/StudentLocation") { _, _ -> Response in
            let list = records.enumerated().map { index, record in
                let updated = String(format: "2026-01-01T00:%02d:00.000Z", 59 - index)
                return WireJSON.object([
                    ("createdAt", .string(updated)), ("firstName", .string(record.first)), ("lastName", .string("L")),
                    ("latitude", .number(1)), ("longitude", .number(2)), ("mapString", .string("Somewhere")),
                    ("mediaURL", .string(record.link)), ("objectId", .string("o\(index)")), ("uniqueKey", .string("u\(index)")),
                    ("updatedAt", .string(updated)),
                ])
            }
            return Response(status: .ok, body: .init(byteBuffer: ByteBuffer(string: WireJSON.object([("results", .array(list))]).serialized)))
        }
        return Application(router: router, configuration: .init(address: .hostname("127.0.0.1", port: 0)))
    }

    /// A client of a daemon of `upstream`, logged in (as Ada, account 42), for `body` on a thread of
    /// its own: the daemon is stopped and the client's folder removed after.
    private static func withLoggedInClient(
        of upstream: some ApplicationProtocol, _ body: @escaping @Sendable (DaemonProcess, ClientRun) throws -> Void
    ) async throws {
        try await upstream.test(.live) { server in
            let daemon = try DaemonProcess(apiURL: "http://127.0.0.1:\(try #require(server.port))/v1")
            defer { daemon.tearDown() }
            try await onOwnThread {
                let client = try ClientRun(socket: daemon.socketPath)
                defer { client.remove() }
                #expect(try client.run(["login", "--username", "ada@example.com", "--password-stdin"], stdin: "pw\n").status == 0)
                try body(daemon, client)
            }
        }
    }

    @Test func openHandsTheOpenerWebLinksOnlyAndNamesCannotMoveThem() async throws {
        try await Self.withLoggedInClient(of: Self.upstream()) { _, client in
            let table = try client.run(["students"])
            #expect(table.status == 0, "\(table.stderr)")
            #expect(table.stdout.split(separator: "\n").count == Self.records.count + 1, "one line a student: \(table.stdout.prefix(400))")

            for (index, record) in Self.records.enumerated() {
                let opened = try client.run(["open", String(index + 1)], extra: client.recordingOpener)
                let handed = client.takeRecorded()
                if record.link.hasPrefix("https://") {
                    #expect(opened.status == 0, "row \(index + 1): \(opened.stderr)")
                    #expect(handed == [[record.link]], "row \(index + 1) handed \(handed)")
                } else {
                    #expect(opened.status == 1, "row \(index + 1) (\(record.link)): \(opened.stderr)")
                    #expect(handed.isEmpty, "row \(index + 1) handed \(handed) to the opener")
                    #expect(opened.stderr.contains(record.first + " L"), "names the student: \(opened.stderr)")
                }
            }
            // The same by name.
            let byName = try client.run(["open", "H1"], extra: client.recordingOpener)
            #expect(byName.status == 1 && client.takeRecorded().isEmpty, "\(byName.stderr)")
            #expect(byName.stderr.contains("H1 L"), "\(byName.stderr)")
            // xdg-open itself never sees a link as an option.
            let real = try client.run(["open", "6"], extra: ["ONTHEMAP_OPENER": ""])
            #expect(real.status == 1)
            #expect(!real.stderr.contains("xdg-open"), "the link was refused before any opener ran: \(real.stderr)")
        }
    }

    /// A link the daemon drops for what it holds, though it is https, is refused with that reason
    /// (issue 39: `open` said "only http and https links are kept" of an https link), by row, by
    /// name, and again after the daemon restarts on its cache; `students --json` says it too.
    @Test func aDroppedLinkSaysWhy() async throws {
        let dropped: [(first: String, link: String, why: String)] = [
            ("Bidi", "https://ada.example/\u{202E}gnp.exe", "it holds a hidden character (U+202E)"),
            ("Zero", "https://x.example/\u{200B}", "it holds a hidden character (U+200B)"),
            ("Joiner", "https://x.example/a\u{2060}b", "it holds a hidden character (U+2060)"),
            ("Bell", "https://x.example/\u{7}", "it holds a hidden character (U+0007)"),
            ("Script", "javascript:alert(1)", "it is not an http:// or https:// address"),
        ]
        try await Self.withLoggedInClient(of: Self.upstream(dropped.map { ($0.first, $0.link) })) { daemon, client in
            let json = try client.run(["students", "--json"])
            let listed = try WireCoding.decoder().decode([StudentLocation].self, from: Data(json.stdout.utf8))
            #expect(listed.map(\.mediaURL) == Array(repeating: "", count: dropped.count), "no such link is passed on: \(json.stdout)")
            #expect(listed.map(\.mediaURLDropped) == dropped.map(\.why), "\(json.stdout)")

            func expectRefusals(_ when: String) throws {
                #expect(try client.run(["students"]).status == 0)
                for (index, record) in dropped.enumerated() {
                    let opened = try client.run(["open", String(index + 1)], extra: client.recordingOpener)
                    #expect(opened.status == 1 && client.takeRecorded().isEmpty, "\(when), row \(index + 1): \(opened.stderr)")
                    #expect(opened.stderr == "onthemap: not opening \(record.first) L's link: \(record.why)\n", "\(when): \(opened.stderr)")
                }
                let byName = try client.run(["open", "Bidi"], extra: client.recordingOpener)
                #expect(byName.status == 1 && client.takeRecorded().isEmpty, "\(when): \(byName.stderr)")
                #expect(byName.stderr == "onthemap: not opening Bidi L's link: it holds a hidden character (U+202E)\n", "\(when): \(byName.stderr)")
            }
            try expectRefusals("as fetched")
            // The full-screen map says it too, of the pin picked (any: each link was dropped).
            if TmuxSession.isAvailable {
                let map = try TmuxSession(
                    command: "\(BuiltProducts.path("onthemap")) map -i", environment: client.environment.merging(client.recordingOpener.merging(["LANG": "C.UTF-8"]) { $1 }) { $1 })
                defer { map.tearDown() }
                _ = try map.waitForScreen { $0.joined().contains("zoom") }
                try map.send("n")
                try map.send("Enter")
                let (said, lines) = try map.waitForScreen { $0.joined().contains("not opening ") }
                let line = lines.first { $0.contains("not opening ") } ?? ""
                #expect(said && dropped.contains { line.contains("not opening \($0.first) L's link: \($0.why)") }, "\(lines.joined(separator: "\n"))")
                #expect(client.takeRecorded().isEmpty)
            } else {
                print("skipped: the full-screen map's refusal needs tmux (/usr/bin/tmux), not installed")
            }
            // Started again on its cache file (which keeps the links as the upstream sent them, so
            // the reasons are found again, never read from a field the upstream could fill).
            #expect(daemon.stop() == 0)
            let cache = try String(contentsOfFile: daemon.cacheFile, encoding: .utf8)
            #expect(cache.contains("gnp.exe") && !cache.contains("mediaURLDropped"), "the links as sent: \(cache.prefix(600))")
            try daemon.start()
            try expectRefusals("after a restart")
        }
    }

    /// The client's own rule, for a source that does not filter (an older daemon, a tampered last
    /// table): a stand-in daemon answers `students` with every hostile link as it is.
    @Test(arguments: hostileLinks)
    func aLinkThatIsNotAWebLinkIsRefusedWhateverSentIt(link: String) throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let student = StudentLocation(
            objectId: "o1", uniqueKey: "u1", firstName: "Eve", lastName: "Hostile", mapString: "Somewhere", mediaURL: link,
            latitude: 1, longitude: 2, createdAt: nil, updatedAt: nil)
        let answer = try JSONText.parse(JSONText.of(
            StudentsResult(students: [StudentPin(student: student, mine: false)], total: 1, refreshedAt: nil, stale: false)))
        let daemon = try PassThroughDaemon(path: directory.file("d.sock"), result: answer)
        defer { daemon.stop() }
        let client = try ClientRun(socket: directory.file("d.sock"))
        defer { client.remove() }
        let opened = try client.run(["open", "Eve"], extra: client.recordingOpener)
        #expect(opened.status == 1, "\(opened.stderr)")
        #expect(client.takeRecorded().isEmpty)
        #expect(opened.stderr.contains("Eve Hostile") && opened.stderr.contains("is not an http:// or https:// address"), "\(opened.stderr)")
        #expect(opened.stderr.split(separator: "\n").count == 1, "one line: \(opened.stderr)")

        // A last table with the link in it (written by hand, as anyone with the user's files could).
        let table = WireJSON.object([("name", .string("Eve Hostile")), ("link", .string(link))]).serialized + "\n"
        try FileManager.default.createDirectory(atPath: client.cache + "/onthemap", withIntermediateDirectories: true)
        try table.write(toFile: client.cache + "/onthemap/last-table.jsonl", atomically: true, encoding: .utf8)
        let row = try client.run(["open", "1"], extra: client.recordingOpener)
        #expect(row.status == 1 && client.takeRecorded().isEmpty, "\(row.stderr)")
        #expect(row.stderr.contains("Eve Hostile"))
    }

    /// The last table is private, one JSON object a line, and only what a person saw.
    @Test func theLastTableIsPrivateAndOnlyWhatWasShown() async throws {
        try await Self.withLoggedInClient(of: Self.upstream()) { _, client in
            let path = client.cache + "/onthemap/last-table.jsonl"
            // A table an older client left: removed once a new one is saved.
            try FileManager.default.createDirectory(atPath: client.cache + "/onthemap", withIntermediateDirectories: true)
            try "Old\thttps://old.example\n".write(toFile: client.cache + "/onthemap/last-table.tsv", atomically: true, encoding: .utf8)

            // Sent to /dev/null or a file: nobody saw it, so there is no last table.
            for target in ["/dev/null", client.cache + "/out.txt"] {
                let hidden = try client.shell("exec \"$ONTHEMAP\" students >'\(target)'")
                #expect(hidden.status == 0, "\(hidden.stderr)")
                #expect(!FileManager.default.fileExists(atPath: path), "saved a table sent to \(target)")
                let open = try client.run(["open", "1"], extra: client.recordingOpener)
                #expect(open.status == 1 && open.stderr.contains("no table"), "\(open.stderr)")
            }
            // Through a pipe (a pager, grep) the numbers are still seen: saved.
            #expect(try client.shell("\"$ONTHEMAP\" students | cat >/dev/null").status == 0)
            let attributes = try FileManager.default.attributesOfItem(atPath: path)
            #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o600)
            #expect(!FileManager.default.fileExists(atPath: client.cache + "/onthemap/last-table.tsv"))
            let lines = try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n")
            #expect(lines.count == Self.records.count)
            let names = try lines.map { try #require(try JSONDecoder().decode(WireJSON.self, from: Data($0.utf8))["name"]?.stringValue) }
            #expect(names == Self.records.map { $0.first + " L" })
        }
    }
}

/// Runs the built client against one socket with a cache folder of its own, and an opener that
/// records what it is handed.
final class ClientRun: @unchecked Sendable {
    let socket: String
    let home: TemporaryDirectory
    var cache: String { home.file("cache") }
    private var record: String { home.file("opened") }

    init(socket: String) throws {
        self.socket = socket
        home = try TemporaryDirectory(prefix: "onthemap-client")
        let opener = home.file("opener.sh")
        // One line per run: each argument in brackets.
        try "#!/bin/sh\nfor argument in \"$@\"; do printf '[%s]' \"$argument\"; done >>'\(record)'\necho >>'\(record)'\n"
            .write(toFile: opener, atomically: true, encoding: .utf8)
        chmod(opener, 0o755)
    }

    var environment: [String: String] {
        ["ONTHEMAP_SOCKET": socket, "XDG_CACHE_HOME": cache, "NO_COLOR": "1", "COLUMNS": "", "ONTHEMAP": BuiltProducts.path("onthemap")]
    }

    var recordingOpener: [String: String] { ["ONTHEMAP_OPENER": home.file("opener.sh")] }

    func run(_ arguments: [String], stdin: String? = nil, extra: [String: String] = [:]) throws -> CommandResult {
        try runCommand(BuiltProducts.path("onthemap"), arguments, stdin: stdin, environment: environment.merging(extra) { $1 })
    }

    /// A shell command line, `$ONTHEMAP` being the client.
    func shell(_ command: String) throws -> CommandResult {
        try runCommand("/bin/sh", ["-c", command], environment: environment)
    }

    /// The argument lists the opener was run with since the last call.
    func takeRecorded() -> [[String]] {
        guard let text = try? String(contentsOfFile: record, encoding: .utf8) else { return [] }
        try? FileManager.default.removeItem(atPath: record)
        return text.split(separator: "\n").map { line in
            line.dropFirst().dropLast().components(separatedBy: "][")
        }
    }

    func remove() { home.remove() }
}

/// A Unix socket that answers every request on every connection with `result` (the id copied), as
/// a daemon that passes on whatever it got would.
final class PassThroughDaemon: @unchecked Sendable {
    private let listener: Int32
    private let thread: Thread

    init(path: String, result: WireJSON) throws {
        let listener = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        self.listener = listener
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { raw in raw.copyBytes(from: path.utf8.prefix(raw.count - 1)) }
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(listener, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        guard bound == 0, listen(listener, 8) == 0 else { throw POSIXError(.EADDRINUSE) }
        thread = Thread {
            while true {
                let connection = accept(listener, nil, nil)
                guard connection >= 0 else { return }
                var line: [UInt8] = []
                var byte: UInt8 = 0
                while read(connection, &byte, 1) == 1 {
                    guard byte == 0x0A else {
                        line.append(byte)
                        continue
                    }
                    let id = (try? JSONText.parse(line))?["id"] ?? .null
                    line = []
                    let reply = Array(WireJSON.object([("jsonrpc", .string("2.0")), ("id", id), ("result", result)]).serialized.utf8) + [0x0A]
                    _ = reply.withUnsafeBytes { write(connection, $0.baseAddress, $0.count) }
                }
                close(connection)
            }
        }
        thread.start()
    }

    func stop() {
        shutdown(listener, Int32(SHUT_RDWR))
        close(listener)
    }
}
