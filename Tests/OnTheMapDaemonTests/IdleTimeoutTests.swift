import Foundation
import Hummingbird
import HummingbirdTesting
import OnTheMapClient
import OnTheMapModels
import OnTheMapRPC
import OnTheMapTestSupport
import Testing

/// `--idle-timeout` closes connections that say nothing, not those waiting for an answer: a login to
/// a slow upstream (or a first geocode on a busy machine) longer than the timeout was cut off, its
/// answer lost, and `map -i` saw its connection closed under it.
@Suite("The idle timeout", .ownThreads)
struct IdleTimeoutTests {
    /// An upstream that takes `delay` to answer a login.
    private static func slowUpstream(delay: Duration) -> some ApplicationProtocol {
        let router = Router()
        router.post("v1/session") { _, _ -> Response in
            try await Task.sleep(for: delay)
            return Response(
                status: .ok,
                body: .init(byteBuffer: ByteBuffer(string: #")]}'"# + "\n" + #"{"account":{"registered":true,"key":"42"},"session":{"id":"s","expiration":"2099-01-01T00:00:00.000000Z"}}"#)))
        }
        router.get("v1/users/42") { _, _ -> Response in
            Response(status: .ok, body: .init(byteBuffer: ByteBuffer(string: #"{"first_name":"Ada","last_name":"Lovelace","key":"42"}"#)))
        }
        router.get("v1/StudentLocation") { _, _ -> Response in
            Response(status: .ok, body: .init(byteBuffer: ByteBuffer(string: #"{"results":[]}"#)))
        }
        return Application(router: router, configuration: .init(address: .hostname("127.0.0.1", port: 0)))
    }

    @Test func aConnectionWaitingForAnAnswerIsNotClosed() async throws {
        try await Self.slowUpstream(delay: .milliseconds(2500)).test(.live) { server in
            let daemon = try DaemonProcess(
                apiURL: "http://127.0.0.1:\(try #require(server.port))/v1", arguments: ["--idle-timeout", "1"])
            defer { daemon.tearDown() }
            let (login, status) = try await onOwnThread { () throws -> (Result<WireJSON, RPCError>, StatusResult) in
                let client = try RPCConnection(path: daemon.socketPath, timeout: .seconds(30))
                let login = try client.call(
                    "login", params: params(("username", .string("ada@example.com")), ("password", .string("pw"))))
                // The same connection still serves: the answer came, then the next request.
                return (login, try client.result(StatusParams()))
            }
            if case .failure(let error) = login { Issue.record("login failed: \(error.message)") }
            #expect(status.loggedIn)
        }
    }

    @Test func aSilentConnectionIsStillClosed() async throws {
        try await Self.slowUpstream(delay: .zero).test(.live) { server in
            let daemon = try DaemonProcess(
                apiURL: "http://127.0.0.1:\(try #require(server.port))/v1", arguments: ["--idle-timeout", "1"])
            defer { daemon.tearDown() }
            let closed = try await onOwnThread { () throws -> Bool in
                let client = try RPCConnection(path: daemon.socketPath, timeout: .seconds(30))
                _ = try client.result(StatusParams())
                Thread.sleep(forTimeInterval: 3)
                return (try? client.result(StatusParams())) == nil
            }
            #expect(closed, "a connection silent for 3 s outlived a 1 s idle timeout")
        }
    }
}
