import Foundation
import OnTheMapClient
import OnTheMapModels
import OnTheMapRPC
import OnTheMapTestSupport
import Testing

/// The real server with demo data, a real daemon pointed at it, and a client connection.
final class DaemonTestBed: @unchecked Sendable {
    static let email = "demo@onthemap.example"
    static let password = "onthemap-demo"

    let server: ServerFixture
    let daemon: DaemonProcess
    let demoKey: String

    init(
        students: Int = 150, serverArguments: [String] = [], daemonArguments: [String] = [],
        daemonExecutable: String = BuiltProducts.path("onthemapd")
    ) throws {
        server = try ServerFixture(arguments: serverArguments)
        demoKey = try server.seedDemo(count: students)
        daemon = try DaemonProcess(apiURL: server.baseURL, arguments: daemonArguments, executable: daemonExecutable)
    }

    func connect(timeout: Duration? = .seconds(20)) throws -> RPCConnection {
        try RPCConnection(path: daemon.socketPath, timeout: timeout)
    }

    /// Calls a method on a new connection and expects a result.
    func result(_ method: String, _ params: WireJSON? = nil, sourceLocation: SourceLocation = #_sourceLocation) throws -> WireJSON {
        switch try connect().call(method, params: params) {
        case .success(let value): return value
        case .failure(let error):
            Issue.record("\(method) failed: \(error)", sourceLocation: sourceLocation)
            throw error
        }
    }

    /// Calls a method on a new connection and expects an error.
    func error(_ method: String, _ params: WireJSON? = nil, sourceLocation: SourceLocation = #_sourceLocation) throws -> RPCError {
        switch try connect().call(method, params: params) {
        case .success(let value):
            Issue.record("\(method) succeeded unexpectedly: \(value.serialized)", sourceLocation: sourceLocation)
            return RPCError(code: 0, message: "unexpected success")
        case .failure(let error): return error
        }
    }

    func login() throws {
        _ = try result("login", .object([("username", .string(Self.email)), ("password", .string(Self.password))]))
    }

    func tearDown() {
        daemon.tearDown()
        server.tearDown()
    }
}

/// `{"a": …}` shorthand.
func params(_ members: (String, WireJSON)...) -> WireJSON {
    .object(members)
}

