import Foundation
import OnTheMapClient
import OnTheMapModels
import OnTheMapRPC
import OnTheMapTestSupport
import Testing

/// Every JSON-RPC 2.0 rule, one test each, over the real socket. The daemon's upstream is a port
/// nobody listens on: these rules hold without one.
@Suite("JSON-RPC 2.0 over the socket", .ownThreads)
final class JSONRPCConformanceTests {
    let daemon: DaemonProcess

    init() throws {
        daemon = try DaemonProcess(apiURL: "http://127.0.0.1:9/v1", arguments: ["--idle-timeout", "2"])
    }

    deinit {
        daemon.tearDown()
    }

    /// Sends raw lines on one connection and reads `count` lines back.
    private func exchange(_ lines: [String], expecting count: Int) throws -> [WireJSON] {
        let connection = try RPCConnection(path: daemon.socketPath, timeout: .seconds(10))
        for line in lines { try connection.send(line: line) }
        return try (0..<count).map { _ in try #require(try connection.read(WireJSON.self)) }
    }

    private func single(_ line: String) throws -> WireJSON {
        try #require(try exchange([line], expecting: 1).first)
    }

    @Test func parseErrorHasNullID() throws {
        let reply = try single(#"{"jsonrpc":"2.0","id":1,"method":"status""#)
        #expect(reply["id"] == .null)
        #expect(reply["error"]?["code"] == .integer(-32700))
    }

    @Test(arguments: [
        #"{"id":1,"method":"status"}"#,  // missing jsonrpc
        #"{"jsonrpc":"1.0","id":1,"method":"status"}"#,  // wrong jsonrpc
        #"{"jsonrpc":2.0,"id":1,"method":"status"}"#,  // jsonrpc not a string
        #"{"jsonrpc":"2.0","id":1,"method":42}"#,  // non-string method
        #"{"jsonrpc":"2.0","id":1}"#,  // no method
        #"{"jsonrpc":"2.0","id":{"a":1},"method":"status"}"#,  // bad id type
        #"{"jsonrpc":"2.0","id":[1],"method":"status"}"#,
        #"{"jsonrpc":"2.0","id":true,"method":"status"}"#,
        #"{"jsonrpc":"2.0","id":1,"method":"status","params":"x"}"#,  // params neither object nor array
        #""just a string""#,
    ])
    func invalidRequests(line: String) throws {
        let reply = try single(line)
        #expect(reply["error"]?["code"] == .integer(-32600), "\(reply.serialized)")
        #expect(reply["id"] == .null)
        #expect(reply["jsonrpc"] == .string("2.0"))
    }

    @Test func emptyBatchIsOneError() throws {
        let reply = try single("[]")
        #expect(reply["error"]?["code"] == .integer(-32600))
        #expect(reply["id"] == .null)
    }

    @Test func notificationsGetNoReply() throws {
        // A notification, an all-notification batch, then a request: only the request is answered.
        let replies = try exchange([
            #"{"jsonrpc":"2.0","method":"status"}"#,
            #"{"jsonrpc":"2.0","method":"no.such.method"}"#,
            #"[{"jsonrpc":"2.0","method":"status"},{"jsonrpc":"2.0","method":"status"}]"#,
            #"{"jsonrpc":"2.0","id":"last","method":"status"}"#,
        ], expecting: 1)
        #expect(replies[0]["id"] == .string("last"))
    }

    @Test func batchesAnswerEachRequest() throws {
        let reply = try single(#"[{"jsonrpc":"2.0","id":1,"method":"status"},{"jsonrpc":"2.0","method":"status"},{"jsonrpc":"2.0","id":2,"method":"nope"},5]"#)
        let elements = arrayOf(reply)
        #expect(elements.count == 3)
        #expect(elements[0]["id"] == .integer(1))
        #expect(elements[0]["result"]?["version"] != nil)
        #expect(elements[1]["error"]?["code"] == .integer(-32601))
        #expect(elements[2]["error"]?["code"] == .integer(-32600))
    }

    @Test func unknownMethod() throws {
        let reply = try single(#"{"jsonrpc":"2.0","id":7,"method":"frobnicate"}"#)
        #expect(reply["error"]?["code"] == .integer(-32601))
        #expect(reply["id"] == .integer(7))
    }

    @Test func invalidParamsNameTheField() throws {
        let wrongType = try single(#"{"jsonrpc":"2.0","id":1,"method":"geocode","params":{"query":5}}"#)
        #expect(wrongType["error"]?["code"] == .integer(-32602))
        #expect(wrongType["error"]?["data"]?["field"] == .string("query"))
        let long = try single(#"{"jsonrpc":"2.0","id":1,"method":"geocode","params":{"query":""# + String(repeating: "Paris ", count: 60) + #""}}"#)
        #expect(long["error"]?["code"] == .integer(-32602))
        #expect(long["error"]?["message"]?.stringValue?.contains("too long") == true)
        let unknown = try single(#"{"jsonrpc":"2.0","id":1,"method":"status","params":{"verbose":true}}"#)
        #expect(unknown["error"]?["data"]?["field"] == .string("verbose"))
        let positional = try single(#"{"jsonrpc":"2.0","id":1,"method":"geocode","params":["Paris"]}"#)
        #expect(positional["error"]?["code"] == .integer(-32602))
        #expect(positional["error"]?["data"]?["field"] == .string("params"))
        let emptyPositional = try single(#"{"jsonrpc":"2.0","id":1,"method":"status","params":[]}"#)
        #expect(emptyPositional["result"] != nil)
    }

    @Test(arguments: [#""abc""#, "0", "-12", "9007199254740993", "1.5", "null", #""""#, #""é ✓""#])
    func idsAreEchoedExactly(id: String) throws {
        let connection = try RPCConnection(path: daemon.socketPath, timeout: .seconds(10))
        try connection.send(line: #"{"jsonrpc":"2.0","id":\#(id),"method":"status"}"#)
        let line = try #require(try connection.readLine())
        #expect(line.hasPrefix(#"{"id":\#(id),"jsonrpc":"2.0","result":"#), "\(line.prefix(60))")
    }

    @Test func pipelinedRequestsAreAnsweredInOrder() throws {
        let lines = (1...20).map { #"{"jsonrpc":"2.0","id":\#($0),"method":"\#($0 % 2 == 0 ? "status" : "rpc.discover")"}"# }
        let connection = try RPCConnection(path: daemon.socketPath, timeout: .seconds(10))
        try connection.send(line: lines.joined(separator: "\n"))
        for expected in 1...20 {
            #expect(try connection.read(WireJSON.self)?["id"] == .integer(expected))
        }
    }

    @Test func oversizedLineIsRefusedAndClosed() throws {
        let connection = try RPCConnection(path: daemon.socketPath, timeout: .seconds(10))
        let huge = #"{"jsonrpc":"2.0","id":1,"method":"geocode","params":{"query":""# + String(repeating: "x", count: 1_100_000) + #""}}"#
        try? connection.send(line: huge)
        let reply = try #require(try connection.read(WireJSON.self))
        #expect(reply["error"]?["code"] == .integer(-32600))
        #expect(reply["error"]?["message"]?.stringValue?.contains("request too large") == true)
        #expect(try connection.readLine() == nil)  // closed
        // The daemon is fine.
        #expect(try single(#"{"jsonrpc":"2.0","id":2,"method":"status"}"#)["result"] != nil)
    }

    @Test func slowClientDoesNotDelayOthers() throws {
        let slow = try RPCConnection(path: daemon.socketPath, timeout: .seconds(10))
        try slow.send(line: #"{"jsonrpc":"2.0","id":1,"#)  // half a request, newline-terminated garbage…
        let stalled = try RPCConnection(path: daemon.socketPath, timeout: .seconds(10))
        // …and a client that connects and says nothing, for now.
        #expect(try single(#"{"jsonrpc":"2.0","id":2,"method":"status"}"#)["result"] != nil)
        // Answered before the stalled clients timed out (2 s): the silent one is still open, and is
        // answered when it speaks. Had the answer waited for them, the daemon would have closed it.
        try stalled.send(line: #"{"jsonrpc":"2.0","id":3,"method":"status"}"#)
        #expect(try stalled.read(WireJSON.self)?["id"] == .integer(3))
    }

    @Test func idleConnectionsCloseUnlessSubscribed() throws {
        let idle = try RPCConnection(path: daemon.socketPath, timeout: .seconds(10))
        let subscribed = try RPCConnection(path: daemon.socketPath, timeout: .seconds(4))
        #expect(try subscribed.call("subscribe", params: nil).get()["events"] == .array([.string("students"), .string("session"), .string("status")]))
        let started = ContinuousClock.now
        #expect(try idle.readLine() == nil)  // closed by the daemon after --idle-timeout 2
        #expect(ContinuousClock.now - started >= .milliseconds(1500))
        // The subscribed connection is still served after the idle timeout.
        #expect(try subscribed.call("status").get()["version"] != nil)
    }

    @Test func manyConcurrentConnections() throws {
        // No other test starts a process while a thousand sockets are open (`ProcessLaunches.pause`).
        ProcessLaunches.pause()
        defer { ProcessLaunches.resume() }
        let connections = try (0..<1000).map { _ in try RPCConnection(path: daemon.socketPath, timeout: .seconds(20)) }
        for (index, connection) in connections.enumerated() {
            try connection.send(line: #"{"jsonrpc":"2.0","id":\#(index),"method":"status"}"#)
        }
        for (index, connection) in connections.enumerated() {
            #expect(try connection.read(WireJSON.self)?["id"] == .integer(index))
        }
    }

    @Test func discoverListsEveryMethod() throws {
        let reply = try single(#"{"jsonrpc":"2.0","id":1,"method":"rpc.discover"}"#)
        let names = arrayOf(reply["result"]?["methods"]).compactMap { $0["name"]?.stringValue }
        #expect(Set(names) == ["status", "login", "logout", "students", "refresh", "geocode", "myPin", "postPin", "subscribe", "unsubscribe", "map", "exportMap", "signUp", "rpc.discover"])
        #expect(reply["result"]?["openrpc"] == .string("1.2.6"))
    }
}
