import OnTheMapModels
import OnTheMapRPC
import Testing

/// What the client writes and where it connects, below the end-to-end tests.
@Suite("Client requests and socket path")
struct ClientWireTests {
    @Test("A request line is the JSON-RPC object, members in order, then a newline")
    func requestLine() throws {
        let plain = RPCRequest(id: .integer(1), method: "status")
        #expect(String(decoding: plain.line, as: UTF8.self) == #"{"jsonrpc":"2.0","id":1,"method":"status"}"# + "\n")
        #expect(plain.serialized == #"{"jsonrpc":"2.0","id":1,"method":"status"}"#)

        let params: WireJSON = .object([("place", .string("Zürich \"HB\"\n")), ("limit", .integer(3))])
        let full = RPCRequest(id: .string("a\"b"), method: "geocode", params: params)
        let text = String(decoding: full.line, as: UTF8.self)
        #expect(text == #"{"jsonrpc":"2.0","id":"a\"b","method":"geocode","params":{"place":"Zürich \"HB\"\n","limit":3}}"# + "\n")
        #expect(try WireJSON.parse(text.dropLast().utf8) == .object([
            ("jsonrpc", .string("2.0")), ("id", .string("a\"b")), ("method", .string("geocode")), ("params", params),
        ]))

        let notification = RPCRequest(id: nil, method: "refresh")
        #expect(notification.serialized == #"{"jsonrpc":"2.0","method":"refresh"}"#)
    }

    @Test("The socket path: flag, then ONTHEMAP_SOCKET, then XDG_RUNTIME_DIR, then /tmp per user")
    func socketPathPrecedence() {
        let both = ["ONTHEMAP_SOCKET": "/env/sock", "XDG_RUNTIME_DIR": "/run/user/1000"]
        #expect(SocketPath.resolve(flag: "/flag/sock", environment: { both[$0] }) == "/flag/sock")
        #expect(SocketPath.resolve(flag: nil, environment: { both[$0] }) == "/env/sock")
        #expect(SocketPath.resolve(flag: "", environment: { both[$0] }) == "/env/sock")
        let runtimeOnly = ["ONTHEMAP_SOCKET": "", "XDG_RUNTIME_DIR": "/run/user/1000"]
        #expect(SocketPath.resolve(flag: nil, environment: { runtimeOnly[$0] }) == "/run/user/1000/onthemap/onthemapd.sock")
        // A relative XDG_RUNTIME_DIR is invalid by the spec and ignored.
        let relative = ["XDG_RUNTIME_DIR": "run/user"]
        #expect(SocketPath.resolve(flag: nil, environment: { relative[$0] }, uid: 1234) == "/tmp/onthemap-1234/onthemapd.sock")
        #expect(SocketPath.resolve(flag: nil, environment: { _ in nil }, uid: 42) == "/tmp/onthemap-42/onthemapd.sock")
    }
}
