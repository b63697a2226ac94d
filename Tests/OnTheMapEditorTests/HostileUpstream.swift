import Foundation
import Hummingbird
import HummingbirdTesting
import OnTheMapTestSupport
import Testing

/// An upstream that stores anything, as a compromised or careless one would: names, places and
/// links with escape sequences, NUL, BEL, C1 controls, bidi overrides and isolates, "Zalgo" text
/// (a letter under twelve combining marks, of which four are shown), zero-width characters and statusline markup. The
/// editors must show none of it as it is, and open no link with a control character (issue 39). Anyone logs in, as account 42, whose own pin is among the records.
enum HostileUpstream {
    /// The account's key: its pin is the third record.
    static let accountKey = "42"

    /// The records, newest first: (first, last, place, link, uniqueKey).
    static let records: [(String, String, String, String, String)] = [
        ("Eve\u{1B}[2J\u{1B}[1;31m", "\u{202E}gnp.exe", "Lima\r\nPeru\u{07}", "https://evil.example/\u{1B}]0;pwned\u{07}", "u1"),
        ("Nul\u{0}Byte", "C1\u{9B}31m Z" + String(repeating: "\u{336}", count: 12), "Oslo\u{2066}x\u{2069}\u{2028}\u{200F}\u{061C}", "https://evil.example/\u{202E}gnp.exe", "u2"),
        ("Ada", "Lovelace", "Home\u{1B}[5m %{luaeval('0')}", "https://ada.example/", accountKey),
        // Format characters that show as nothing (allowed in names and places, docs/API.md): the
        // editors drop them when they show them, where Neovim drew "<200b>" (audit6 item 7).
        ("Plain", "Per\u{200B}son", "Tokyo 👩\u{200D}👩\u{200D}👧, Japan", "https://plain.example/", "u4"),
    ]

    /// The JSON text of `object`, control characters escaped as JSON escapes them.
    private static func json(_ object: Any) -> ByteBuffer {
        ByteBuffer(bytes: (try? JSONSerialization.data(withJSONObject: object)) ?? Data())
    }

    /// The upstream, on a free port of 127.0.0.1.
    static func application() -> some ApplicationProtocol {
        let router = Router()
        let session = #")]}'"# + "\n"
            + #"{"account":{"registered":true,"key":"42"},"session":{"id":"s","expiration":"2099-01-01T00:00:00.000000Z"}}"#
        router.post("v1/session") { _, _ -> Response in Response(status: .ok, body: .init(byteBuffer: ByteBuffer(string: session))) }
        router.get("v1/session") { _, _ -> Response in Response(status: .ok, body: .init(byteBuffer: ByteBuffer(string: session))) }
        router.delete("v1/session") { _, _ -> Response in Response(status: .ok, body: .init(byteBuffer: ByteBuffer(string: session))) }
        router.get("v1/users/42") { _, _ -> Response in
            Response(status: .ok, body: .init(byteBuffer: json(["first_name": "Ada\u{1B}[31m", "last_name": "Love\u{202E}lace", "key": accountKey])))
        }
        router.get("v1/StudentLocation") { _, _ -> Response in
            let list = records.enumerated().map { index, record in
                let updated = String(format: "2026-01-01T00:%02d:00.000Z", 59 - index)
                return [
                    "createdAt": updated, "firstName": record.0, "lastName": record.1, "latitude": 48.0 + Double(index),
                    "longitude": 2.0 + Double(index), "mapString": record.2, "mediaURL": record.3, "objectId": "o\(index)",
                    "uniqueKey": record.4, "updatedAt": updated,
                ] as [String: Any]
            }
            return Response(status: .ok, body: .init(byteBuffer: json(["results": list])))
        }
        return Application(router: router, configuration: .init(address: .hostname("127.0.0.1", port: 0)))
    }

    /// Runs `editor` with `arguments` against a daemon of this upstream (logged out), with the
    /// editors' environment and `extra`; returns how it ended.
    static func runEditor(_ editor: String, _ arguments: [String], environment extra: [String: String] = [:]) async throws
        -> CommandResult
    {
        try await application().test(.live) { server in
            let apiURL = "http://127.0.0.1:\(try #require(server.port))/v1"
            // A thread of its own, as for every editor run: it blocks for a while.
            return try await onOwnThread {
                let daemon = try DaemonProcess(apiURL: apiURL)
                defer { daemon.tearDown() }
                let scratch = try TemporaryDirectory(prefix: "onthemap-hostile")
                defer { scratch.remove() }
                try FileManager.default.createDirectory(atPath: scratch.file("home"), withIntermediateDirectories: true)
                let environment = EditorTestBed.environment(socket: daemon.socketPath, scratch: scratch)
                    .merging([
                        "ONTHEMAP_TEST_HOSTILE_KEY": accountKey, "ONTHEMAP_TEST_EMAIL": "ada@example.com",
                        "ONTHEMAP_TEST_PASSWORD": "any password",
                    ]) { $1 }.merging(extra) { $1 }
                return try runSupervised(editor, arguments, environment: environment, timeout: 300)
            }
        }
    }
}
