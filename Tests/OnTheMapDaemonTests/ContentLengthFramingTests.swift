import Foundation
import OnTheMapClient
import OnTheMapModels
import OnTheMapRPC
import OnTheMapTestSupport
import Testing

/// The LSP base framing (`Content-Length: N\r\n\r\n<body>`) next to the newline framing, over the
/// real socket: a connection is answered in the framing it opened with, with the same limits and
/// errors. The daemon's upstream is a port nobody listens on: framing needs none.
@Suite("Content-Length framing over the socket", .ownThreads)
final class ContentLengthFramingTests {
    let daemon: DaemonProcess

    init() throws {
        daemon = try DaemonProcess(apiURL: "http://127.0.0.1:9/v1")
    }

    deinit {
        daemon.tearDown()
    }

    private func connect() throws -> FramedSocket {
        try FramedSocket(path: daemon.socketPath)
    }

    @Test func requestsAreAnsweredInTheirOwnFraming() throws {
        let framed = try connect()
        framed.request(#"{"jsonrpc":"2.0","id":1,"method":"status"}"#)
        // `readFrame` accepts exactly `Content-Length: N` and a body of N bytes.
        let frame = try #require(try framed.readFrame())
        #expect(frame.body.hasPrefix(#"{"id":1,"jsonrpc":"2.0","result":{"apiURL":"#))
        #expect(frame.body.hasSuffix("}"), "the body is the JSON text alone, without a line end")
        // A newline client of the same daemon still gets lines.
        let lines = try RPCConnection(path: daemon.socketPath, timeout: .seconds(10))
        try lines.send(line: #"{"jsonrpc":"2.0","id":2,"method":"status"}"#)
        #expect(try lines.readLine()?.hasPrefix(#"{"id":2,"jsonrpc":"2.0","result":"#) == true)
    }

    @Test(arguments: [
        "content-length: %d\r\n\r\n",  // any case
        "Content-Length: %d\r\nContent-Type: application/vscode-jsonrpc; charset=utf-8\r\n\r\n",
        "Content-Type: application/vscode-jsonrpc; charset=utf-8\r\nContent-Length: %d\r\n\r\n",
        "Content-Length:%d\n\n",  // no space, bare line feeds
        "Content-Length:   %d  \r\n\r\n",
    ])
    func headerVariantsAreTolerated(headerFormat: String) throws {
        let framed = try connect()
        let body = #"{"jsonrpc":"2.0","id":"é","method":"status"}"#
        framed.send(String(format: headerFormat, body.utf8.count) + body)
        let reply = try #require(try framed.read(WireJSON.self))
        #expect(reply["id"] == .string("é"))
        #expect(reply["result"]?["version"] != nil)
    }

    @Test func nullParamsCountAsNone() throws {
        let framed = try connect()
        // What Emacs's jsonrpc.el sends for a call without params.
        framed.request(#"{"jsonrpc":"2.0","id":1,"method":"status","params":null}"#)
        #expect(try framed.read(WireJSON.self)?["result"]?["version"] != nil)
        framed.request(#"{"jsonrpc":"2.0","id":2,"method":"geocode","params":null}"#)
        let missing = try #require(try framed.read(WireJSON.self))
        #expect(missing["error"]?["code"] == .integer(-32602))
        #expect(missing["error"]?["data"]?["field"] == .string("query"))
        // The same on a newline connection.
        let lines = try RPCConnection(path: daemon.socketPath, timeout: .seconds(10))
        try lines.send(line: #"{"jsonrpc":"2.0","id":3,"method":"status","params":null}"#)
        #expect(try lines.read(WireJSON.self)?["result"]?["version"] != nil)
    }

    @Test func pipelinedMessagesBatchesAndNotificationsInPieces() throws {
        let framed = try connect()
        let stream = [
            #"{"jsonrpc":"2.0","id":1,"method":"rpc.discover"}"#,
            #"{"jsonrpc":"2.0","method":"status"}"#,  // a notification: no answer
            #"[{"jsonrpc":"2.0","id":2,"method":"status"},{"jsonrpc":"2.0","method":"status"},{"jsonrpc":"2.0","id":3,"method":"nope"}]"#,
            #"[{"jsonrpc":"2.0","method":"status"}]"#,  // only notifications: no answer
            "{\n  \"jsonrpc\": \"2.0\",\n  \"id\": 4,\n  \"method\": \"status\"\n}",  // a body may span lines
        ].map { FramedSocket.frame($0) }.joined()
        // Sent 7 bytes at a time, so headers and bodies arrive split anywhere.
        let bytes = Array(stream.utf8)
        for start in stride(from: 0, to: bytes.count, by: 7) {
            framed.send(String(decoding: bytes[start..<min(start + 7, bytes.count)], as: UTF8.self))
        }
        #expect(try framed.read(WireJSON.self)?["result"]?["openrpc"] != nil)
        let batch = arrayOf(try framed.read(WireJSON.self))
        #expect(batch.count == 2)
        #expect(batch.first?["id"] == .integer(2))
        #expect(batch.last?["error"]?["code"] == .integer(-32601))
        #expect(try framed.read(WireJSON.self)?["id"] == .integer(4))
    }

    @Test func fastPathAnswersAreFramedToo() throws {
        let framed = try connect()
        // The first status builds the stored answers on the ordinary path; the later ones, in the
        // CLI's canonical form, are answered from them on the event loop.
        for id in 1...3 {
            framed.request(#"{"jsonrpc":"2.0","id":\#(id),"method":"status"}"#)
            let reply = try #require(try framed.read(WireJSON.self))
            #expect(reply["id"] == .integer(id))
            #expect(reply["result"]?["loggedIn"] == .bool(false))
        }
    }

    /// A client that breaks the framing gets an error (id null) in that framing, then is closed.
    @Test(arguments: [
        ("Content-Length: 2000000\r\n\r\n{\"jsonrpc\"", "request too large (over 1 MiB)"),
        ("Content-Length: 99999999999999999999999999\r\n\r\n", "request too large (over 1 MiB)"),
        ("Content-Type: application/json\r\n\r\n{}", "without a Content-Length header"),
        ("Content-Length: twelve\r\n\r\n", "\"twelve\" is not a number"),
        ("Content-Length: -5\r\n\r\n", "is not a number"),
        ("Content-Length: \r\n\r\n", "is not a number"),
        ("Content-Length 12\r\n\r\n", "has no colon"),
        ("Content-Length: 5\r\nContent-Length: 6\r\n\r\n", "two different Content-Length headers"),
        ("Content-Type: x{9000}", "over 8 KiB"),  // 9,000 x's, no line end
    ])
    func brokenFramingIsAnsweredThenClosed(bytes: String, expected: String) throws {
        let framed = try connect()
        framed.send(bytes.replacingOccurrences(of: "x{9000}", with: String(repeating: "x", count: 9000)))
        let reply = try #require(try framed.read(WireJSON.self))
        #expect(reply["id"] == .null)
        #expect(reply["error"]?["code"] == .integer(-32600))
        let message = reply["error"]?["message"]?.stringValue ?? ""
        #expect(message.contains(expected), "\(message)")
        #expect(message.hasSuffix("the connection is closed."))
        #expect(try framed.readFrame() == nil)
    }

    @Test func bodyShorterThanAnnouncedThenEOF() throws {
        let framed = try connect()
        // A complete request first: answered before the error.
        framed.request(#"{"jsonrpc":"2.0","id":1,"method":"status"}"#)
        framed.send("Content-Length: 50\r\n\r\n{\"jsonrpc\"")
        framed.shutdownWrite()
        #expect(try framed.read(WireJSON.self)?["id"] == .integer(1))
        let reply = try #require(try framed.read(WireJSON.self))
        #expect(reply["error"]?["code"] == .integer(-32600))
        #expect(reply["error"]?["message"]?.stringValue?.contains("ended after 10 of the 50 bytes announced") == true)
        #expect(try framed.readFrame() == nil)
    }

    @Test func endOfStreamInsideHeaders() throws {
        let framed = try connect()
        framed.send("Content-Length: 5\r\n")
        framed.shutdownWrite()
        let reply = try #require(try framed.read(WireJSON.self))
        #expect(reply["error"]?["message"]?.stringValue?.contains("ended inside the headers") == true)
        #expect(try framed.readFrame() == nil)
    }

    @Test func brokenClientsDoNotAffectOthers() throws {
        let framed = try connect()
        let lines = try RPCConnection(path: daemon.socketPath, timeout: .seconds(10))
        // One client stalls half-way through a body, one announces too much, one sends garbage headers.
        let stalled = try connect()
        stalled.send("Content-Length: 100\r\n\r\n{\"jsonrpc\":")
        let oversized = try connect()
        oversized.send("Content-Length: 5000000\r\n\r\n")
        let garbage = try connect()
        garbage.send("Content-Whatever\r\n\r\n")
        #expect(try oversized.read(WireJSON.self)?["error"]?["code"] == .integer(-32600))
        #expect(try garbage.read(WireJSON.self)?["error"]?["code"] == .integer(-32600))
        let started = ContinuousClock.now
        for id in 1...5 {
            framed.request(#"{"jsonrpc":"2.0","id":\#(id),"method":"status"}"#)
            #expect(try framed.read(WireJSON.self)?["id"] == .integer(id))
            try lines.send(line: #"{"jsonrpc":"2.0","id":\#(id),"method":"status"}"#)
            #expect(try lines.read(WireJSON.self)?["id"] == .integer(id))
        }
        // Not waiting on the stalled client, which would be closed as idle only after 300 s: a bound
        // that ends a hung test, far above any machine's load.
        #expect(ContinuousClock.now - started < .seconds(60))
        // The stalled client, once it finishes its body, is answered normally.
        let rest = #""2.0","id":9,"method":"status"}"#
        stalled.send(String(repeating: " ", count: 100 - #"{"jsonrpc":"#.utf8.count - rest.utf8.count) + rest)
        #expect(try stalled.read(WireJSON.self)?["id"] == .integer(9))
    }
}

@Suite("Content-Length framing: notifications", .ownThreads)
struct ContentLengthNotificationTests {
    @Test func subscriptionNotificationsAreFramed() throws {
        let bed = try DaemonTestBed(students: 20)
        defer { bed.tearDown() }
        let framed = try FramedSocket(path: bed.daemon.socketPath, timeout: 30)
        framed.request(#"{"jsonrpc":"2.0","id":1,"method":"subscribe","params":null}"#)
        #expect(try framed.read(WireJSON.self)?["result"]?["events"] == .array([.string("students"), .string("session"), .string("status")]))
        try bed.login()
        var methods: Set<String> = []
        while !methods.contains("sessionChanged") {
            let message = try #require(try framed.read(WireJSON.self))
            #expect(message["id"] == nil)
            if let method = message["method"]?.stringValue { methods.insert(method) }
            if method(message) == "sessionChanged" {
                #expect(message["params"]?["loggedIn"] == .bool(true))
            }
        }
        // Requests on the subscribed connection are still answered, framed, between notifications.
        framed.request(#"{"jsonrpc":"2.0","id":2,"method":"myPin"}"#)
        var reply: WireJSON?
        while reply == nil {
            let message = try #require(try framed.read(WireJSON.self))
            if message["id"] == .integer(2) { reply = message }
        }
        #expect(reply?["result"]?["pin"] == nil)
        #expect(reply?["result"]?["cached"] == .bool(false))
    }

    private func method(_ message: WireJSON) -> String? {
        message["method"]?.stringValue
    }
}
