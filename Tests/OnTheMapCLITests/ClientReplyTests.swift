import Foundation
import OnTheMapClient
import OnTheMapModels
import OnTheMapTestSupport
import Testing

/// How the client reads what comes back on its socket, from a stand-in daemon that answers each
/// request line with bytes the test chooses: a reply is parsed where it was received, and a line
/// that is not JSON (invalid UTF-8 included: JSON is UTF-8) is a malformed reply, not a repaired one.
@Suite("The client reading replies", .ownThreads)
struct ClientReplyTests {
    @Test func aReplyIsParsedAndTheLineAfterItStaysForTheNextRead() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.file("d.sock")
        // Two lines in one write: the second must still be there for the second call.
        let daemon = try StandInDaemon(path: path, replies: [
            Array(#"{"jsonrpc":"2.0","id":1,"result":{"name":"Zoë"}}"#.utf8) + [0x0A]
                + Array(#"{"jsonrpc":"2.0","id":2,"result":2}"#.utf8) + [0x0A],
        ])
        defer { daemon.stop() }
        let connection = try RPCConnection(path: path, timeout: .seconds(10))
        #expect(try connection.call("status").get() == .object([("name", .string("Zoë"))]))
        #expect(try connection.call("status").get() == .integer(2))
    }

    @Test(arguments: [
        Array(#"{"jsonrpc":"2.0","id":1,"result":""#.utf8) + [0xFF] + Array(#""}"#.utf8) + [0x0A],
        Array(#"{"jsonrpc":"2.0","id":1,"result":"#.utf8) + [0x0A],
    ])
    func aLineThatIsNotJSONIsMalformed(reply: [UInt8]) throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.file("d.sock")
        let daemon = try StandInDaemon(path: path, replies: [reply])
        defer { daemon.stop() }
        let connection = try RPCConnection(path: path, timeout: .seconds(10))
        #expect(throws: ClientError(kind: .malformed, message: "onthemapd sent a line that is not JSON")) {
            try connection.call("status")
        }
    }

    /// A daemon of another version that refuses a request's params: the message names no field of
    /// the protocol (the user typed none of them) and says what to compare.
    @Test func refusedParamsAreAVersionMismatchInTheUsersWords() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.file("d.sock")
        let daemon = try StandInDaemon(path: path, replies: [
            Array(#"{"jsonrpc":"2.0","id":1,"error":{"code":-32602,"message":"Invalid params: query is required."}}"#.utf8) + [0x0A]
        ])
        defer { daemon.stop() }
        let result = try runCommand(
            BuiltProducts.path("onthemap"), ["geocode", "Paris"], environment: ["ONTHEMAP_SOCKET": path, "PATH": "/usr/bin:/bin"])
        #expect(result.status == 1, "\(result.status) \(result.stderr)")
        #expect(
            result.stderr == "onthemap: onthemapd did not accept the request; onthemap and onthemapd may be of different versions: "
                + "compare `onthemap --version` and `onthemapd --version`\n", "\(result.stderr)")
    }
}

/// A Unix socket that accepts one connection and writes `replies[n]` after the n-th line it reads.
private final class StandInDaemon: @unchecked Sendable {
    private let listener: Int32
    private let thread: Thread

    init(path: String, replies: [[UInt8]]) throws {
        let listener = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        self.listener = listener
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            raw.copyBytes(from: path.utf8.prefix(raw.count - 1))
        }
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(listener, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        guard bound == 0, listen(listener, 1) == 0 else { throw POSIXError(.EADDRINUSE) }
        thread = Thread {
            let connection = accept(listener, nil, nil)
            guard connection >= 0 else { return }
            defer { close(connection) }
            var byte: UInt8 = 0
            for reply in replies {
                while read(connection, &byte, 1) == 1, byte != 0x0A {}
                _ = reply.withUnsafeBytes { write(connection, $0.baseAddress, $0.count) }
            }
            while read(connection, &byte, 1) == 1 {}  // until the client closes
        }
        thread.start()
    }

    func stop() {
        shutdown(listener, Int32(SHUT_RDWR))
        close(listener)
    }
}
