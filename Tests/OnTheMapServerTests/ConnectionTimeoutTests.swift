import Foundation
import NIOHTTP1
import OnTheMapTestSupport
import Testing

/// Connections that stop in the middle of a request head are closed by the idle timeout, over real
/// sockets, while the server keeps answering everyone else. Closed without a byte of answer: a
/// refusal would have said 503 first. The deadlines only end a hung test; none measures speed.
@Suite("Connection timeouts", .ownThreads)
struct ConnectionTimeoutTests {
    @Test func aThousandConnectionsStuckMidHeaderAreClosed() async throws {
        raiseOpenFileLimit()
        let fixture = try ServerFixture()  // the default idle timeout, as shipped
        defer { fixture.tearDown() }
        let port = fixture.server.port
        // Blocking sockets, on a thread of their own: a thousand connects and polls must not hold
        // Swift's cooperative threads, which every other test running meanwhile needs. No other test
        // starts a process while they are open (`ProcessLaunches.pause`).
        let sockets = try await onOwnThread {
            ProcessLaunches.pause()
            var opened: [Int32] = []
            do {
                for _ in 0..<1000 {
                    let fd = try connectLoopback(port: port)
                    opened.append(fd)
                    let partial = "GET /v1/StudentLocation HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: "
                    _ = partial.withCString { send(fd, $0, strlen($0), Int32(MSG_NOSIGNAL)) }
                }
            } catch {
                opened.forEach { close($0) }
                ProcessLaunches.resume()
                throw error
            }
            return opened
        }
        defer {
            sockets.forEach { close($0) }
            ProcessLaunches.resume()
        }

        // Meanwhile the server answers a normal client.
        let reply = try await ServerHTTP.send(.GET, fixture.baseURL + "/StudentLocation?limit=1")
        #expect(reply.status == 200)

        let states = try await onOwnThread { () -> [PeerState] in
            let deadline = ContinuousClock.now + .seconds(120)
            var states = sockets.map(peerState)
            while states.contains(.silent), ContinuousClock.now < deadline {
                usleep(500_000)
                states = sockets.map(peerState)
            }
            return states
        }
        #expect(!states.contains(.silent), "\(states.filter { $0 == .silent }.count) of 1000 connections still open")
        #expect(!states.contains(.sent), "\(states.filter { $0 == .sent }.count) were answered, not timed out")
    }

    /// `--idle-timeout` is what closes a stuck connection: of two servers given a stuck head at the
    /// same moment, the one told 2 s closes it while the one told 600 s still holds its own.
    @Test func idleTimeoutIsAnOption() async throws {
        raiseOpenFileLimit()
        let short = try ServerFixture(arguments: ["--idle-timeout", "2"])
        defer { short.tearDown() }
        let long = try ServerFixture(arguments: ["--idle-timeout", "600"])
        defer { long.tearDown() }
        let ports = (short.server.port, long.server.port)
        let (shortFD, longFD) = try await onOwnThread { (try connectLoopback(port: ports.0), try connectLoopback(port: ports.1)) }
        defer {
            close(shortFD)
            close(longFD)
        }
        for fd in [shortFD, longFD] { _ = "GET /v1/Stud".withCString { send(fd, $0, strlen($0), Int32(MSG_NOSIGNAL)) } }
        #expect(eventually(timeout: .seconds(60)) { peerState(shortFD) == .closed }, "\(peerState(shortFD))")
        #expect(peerState(longFD) == .silent, "the 600 s server's connection is still open")
    }
}

/// 1,000 client sockets need more than the usual 1,024 descriptors with the test runner's own.
private func raiseOpenFileLimit() {
    var limit = rlimit()
    guard getrlimit(__rlimit_resource_t(RLIMIT_NOFILE.rawValue), &limit) == 0, limit.rlim_cur < limit.rlim_max else { return }
    limit.rlim_cur = limit.rlim_max
    _ = setrlimit(__rlimit_resource_t(RLIMIT_NOFILE.rawValue), &limit)
}
