import OnTheMapModels
import OnTheMapRPC
import OnTheMapTestSupport
import Testing

/// What the client writes and where it connects, below the end-to-end tests.
@Suite("Client requests and socket path", .ownThreads)
struct ClientWireTests {
    @Test("A request line is the JSON-RPC object, members in the order given, then a newline")
    func requestLine() throws {
        let plain = RPCRequest(id: .integer(1), method: "status")
        #expect(String(decoding: plain.line, as: UTF8.self) == #"{"jsonrpc":"2.0","id":1,"method":"status"}"# + "\n")

        let params: WireJSON = .object([("place", .string("Zürich \"HB\"\n")), ("limit", .integer(3))])
        let full = RPCRequest(id: .string("a\"b"), method: "geocode", params: params)
        let text = String(decoding: full.line, as: UTF8.self)
        #expect(text == #"{"jsonrpc":"2.0","id":"a\"b","method":"geocode","params":{"place":"Zürich \"HB\"\n","limit":3}}"# + "\n")
        #expect(try JSONText.parse(text.dropLast()) == .object([
            ("jsonrpc", .string("2.0")), ("id", .string("a\"b")), ("method", .string("geocode")), ("params", params),
        ]))

        let notification = RPCRequest(id: nil, method: "refresh")
        #expect(String(decoding: notification.line, as: UTF8.self) == #"{"jsonrpc":"2.0","method":"refresh"}"# + "\n")
    }

    @Test("The socket path: flag, then ONTHEMAP_SOCKET, then XDG_RUNTIME_DIR, /run/user/$UID, /tmp per user")
    func socketPathPrecedence() {
        let both = ["ONTHEMAP_SOCKET": "/env/sock", "XDG_RUNTIME_DIR": "/run/user/1000"]
        #expect(SocketPath.candidates(flag: "/flag/sock", environment: { both[$0] }) == ["/flag/sock"])
        #expect(SocketPath.candidates(flag: nil, environment: { both[$0] }) == ["/env/sock"])
        #expect(SocketPath.candidates(flag: "", environment: { both[$0] }) == ["/env/sock"])
        let runtimeOnly = ["ONTHEMAP_SOCKET": "", "XDG_RUNTIME_DIR": "/home/ada/run"]
        #expect(
            SocketPath.candidates(flag: nil, environment: { runtimeOnly[$0] }, uid: 1000) == [
                "/home/ada/run/onthemap/onthemapd.sock", "/run/user/1000/onthemap/onthemapd.sock",
                "/tmp/onthemap-1000/onthemapd.sock",
            ])
        // The runtime directory is XDG_RUNTIME_DIR itself: tried once.
        let systemd = ["XDG_RUNTIME_DIR": "/run/user/1000"]
        #expect(SocketPath.candidates(flag: nil, environment: { systemd[$0] }, uid: 1000).count == 2)
        // A relative XDG_RUNTIME_DIR is invalid by the spec and ignored.
        let relative = ["XDG_RUNTIME_DIR": "run/user"]
        #expect(
            SocketPath.candidates(flag: nil, environment: { relative[$0] }, uid: 1234) == [
                "/run/user/1234/onthemap/onthemapd.sock", "/tmp/onthemap-1234/onthemapd.sock",
            ])
    }

    @Test("The daemon binds under XDG_RUNTIME_DIR, else /run/user/$UID when it is the user's, else /tmp")
    func daemonSocketPath() {
        let runtime = ["XDG_RUNTIME_DIR": "/home/ada/run"]
        #expect(
            SocketPath.resolve(flag: nil, environment: { runtime[$0] }, uid: 7, ownsDirectory: { _, _ in false })
                == "/home/ada/run/onthemap/onthemapd.sock")
        #expect(
            SocketPath.resolve(flag: nil, environment: { _ in nil }, uid: 7, ownsDirectory: { $0 == "/run/user/7" && $1 == 7 })
                == "/run/user/7/onthemap/onthemapd.sock")
        #expect(
            SocketPath.resolve(flag: nil, environment: { _ in nil }, uid: 7, ownsDirectory: { _, _ in false })
                == "/tmp/onthemap-7/onthemapd.sock")
        #expect(SocketPath.resolve(flag: "/x.sock", environment: { _ in nil }, uid: 7) == "/x.sock")
    }
}
