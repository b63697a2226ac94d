import Foundation
import NIOHTTP1
import OnTheMapTestSupport
import Testing

/// Connections that stop in the middle of a request head are closed by the idle timeout, over real
/// sockets, while the server keeps answering everyone else.
@Suite("Connection timeouts", .ownThreads)
struct ConnectionTimeoutTests {
    @Test func aThousandConnectionsStuckMidHeaderAreClosedWithinSixtySeconds() async throws {
        raiseOpenFileLimit()
        let fixture = try ServerFixture()  // the default idle timeout, as shipped
        defer { fixture.tearDown() }
        let port = fixture.server.port
        let started = Date()
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

        let open = try await onOwnThread { () -> Set<Int32> in
            var open = Set(sockets)
            while !open.isEmpty, Date().timeIntervalSince(started) < 75 {
                for fd in open where isClosedByPeer(fd) { open.remove(fd) }
                if !open.isEmpty { usleep(500_000) }
            }
            return open
        }
        let elapsed = Date().timeIntervalSince(started)
        #expect(open.isEmpty, "\(open.count) of 1000 connections still open after \(Int(elapsed)) s")
        #expect(elapsed < 60, "closed after \(Int(elapsed)) s")
        // Not closed at once either: the timeout, not a refusal, ended them.
        #expect(elapsed > 5)
    }

    @Test func idleTimeoutIsAnOption() async throws {
        raiseOpenFileLimit()
        let fixture = try ServerFixture(arguments: ["--idle-timeout", "2"])
        defer { fixture.tearDown() }
        let port = fixture.server.port
        // Timed from before the connection exists, so a slow machine can only make it look longer.
        let started = Date()
        let fd = try await onOwnThread { try connectLoopback(port: port) }
        defer { close(fd) }
        _ = "GET /v1/Stud".withCString { send(fd, $0, strlen($0), Int32(MSG_NOSIGNAL)) }
        while !isClosedByPeer(fd), Date().timeIntervalSince(started) < 30 {
            try await Task.sleep(for: .milliseconds(100))
        }
        let elapsed = Date().timeIntervalSince(started)
        #expect(isClosedByPeer(fd))
        #expect(elapsed >= 1.5 && elapsed < 15, "closed after \(elapsed) s")
    }
}

/// True once the peer has closed (end of file or reset), without blocking.
private func isClosedByPeer(_ fd: Int32) -> Bool {
    var entry = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
    guard poll(&entry, 1, 0) > 0 else { return false }
    var byte: UInt8 = 0
    let count = recv(fd, &byte, 1, Int32(MSG_DONTWAIT))
    return count == 0 || (count < 0 && errno != EAGAIN && errno != EWOULDBLOCK)
}

/// 1,000 client sockets need more than the usual 1,024 descriptors with the test runner's own.
private func raiseOpenFileLimit() {
    var limit = rlimit()
    guard getrlimit(__rlimit_resource_t(RLIMIT_NOFILE.rawValue), &limit) == 0, limit.rlim_cur < limit.rlim_max else { return }
    limit.rlim_cur = limit.rlim_max
    _ = setrlimit(__rlimit_resource_t(RLIMIT_NOFILE.rawValue), &limit)
}
