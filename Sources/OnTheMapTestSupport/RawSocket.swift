import Foundation
import OnTheMapRPC

/// A bare stream socket (Unix or TCP) for tests that misbehave on purpose: send without reading,
/// stop mid-message, trickle a body in while the server shuts down, hold connections open, pipeline
/// requests. Non-blocking, so a test never hangs on a full buffer.
public final class RawSocket: @unchecked Sendable {
    public let fd: Int32

    /// Connects to `path`.
    public init(path: String) throws {
        // Kept in a local until connected: once `fd` is set, a throw runs `deinit`, which would close
        // the descriptor a second time, by then perhaps another test's pipe (a spawn then failed
        // with "Bad file descriptor").
        let descriptor = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0, let address = SocketPath.address(path),
            SocketPath.withSockaddr(address, { connect(descriptor, $0, $1) }) == 0
        else {
            let reason = String(cString: strerror(errno))
            if descriptor >= 0 { Foundation.close(descriptor) }
            throw ServerProcessError(message: "cannot connect to \(path): \(reason)")
        }
        fd = descriptor
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
    }

    /// Connects to 127.0.0.1:`port` over TCP.
    public init(loopbackPort port: Int) throws {
        fd = try connectLoopback(port: port)
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
    }

    deinit { Foundation.close(fd) }

    /// Sends as much of `bytes` as the peer takes within `timeout`; returns how many bytes went out.
    /// Stops early when the peer closes.
    @discardableResult
    public func send(_ bytes: [UInt8], timeout: Duration) -> Int {
        let deadline = ContinuousClock.now + timeout
        var offset = 0
        while offset < bytes.count, ContinuousClock.now < deadline {
            let written = bytes[offset...].withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if written > 0 {
                offset += written
            } else if written < 0, errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR {
                var poll = pollfd(fd: fd, events: Int16(POLLOUT), revents: 0)
                _ = Glibc.poll(&poll, 1, 50)
            } else {
                break
            }
        }
        return offset
    }

    /// Sends all of `text` within `timeout`, or throws if the peer closes or stops reading first.
    public func sendAll(_ text: String, timeout: Duration = .seconds(30)) throws {
        let bytes = Array(text.utf8)
        let sent = send(bytes, timeout: timeout)
        guard sent == bytes.count else { throw ServerProcessError(message: "sent \(sent) of \(bytes.count) bytes") }
    }

    /// Everything the peer sends until it closes or `timeout` passes.
    public func receiveAll(timeout: Duration) -> [UInt8] {
        receive(timeout: timeout) { _ in false }
    }

    /// What the peer sends until `isComplete` accepts what came so far, the peer closes, or `timeout`
    /// passes.
    public func receive(timeout: Duration, until isComplete: ([UInt8]) -> Bool) -> [UInt8] {
        let deadline = ContinuousClock.now + timeout
        var received: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        while ContinuousClock.now < deadline, !isComplete(received) {
            let count = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if count > 0 {
                received += chunk[..<count]
            } else if count == 0 {
                break
            } else if errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR {
                var poll = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
                _ = Glibc.poll(&poll, 1, 50)
            } else {
                break
            }
        }
        return received
    }

    /// What the peer has done with the connection so far (`peerState`).
    public var peer: PeerState { peerState(fd) }
}

/// What the peer of a stream socket has done so far, seen without blocking or consuming anything.
public enum PeerState: Equatable, Sendable {
    /// Nothing sent, connection open.
    case silent
    /// Bytes are waiting to be read (an answer).
    case sent
    /// Closed (end of file or reset) with nothing left to read: ended without an answer.
    case closed
}

/// The state of `fd`'s peer (`MSG_PEEK`, so a later read still gets every byte).
public func peerState(_ fd: Int32) -> PeerState {
    var byte: UInt8 = 0
    let count = recv(fd, &byte, 1, Int32(MSG_PEEK | MSG_DONTWAIT))
    if count > 0 { return .sent }
    if count == 0 { return .closed }
    return errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR ? .silent : .closed
}

/// A blocking TCP connection to 127.0.0.1:port.
public func connectLoopback(port: Int) throws -> Int32 {
    let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    guard fd >= 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EMFILE) }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    address.sin_port = in_port_t(UInt16(port).bigEndian)
    let result = withUnsafePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
    }
    guard result == 0 else {
        let code = errno
        close(fd)
        throw POSIXError(POSIXErrorCode(rawValue: code) ?? .ECONNREFUSED)
    }
    return fd
}

/// Resident-set figures of a process, from `/proc/PID/status`, in bytes.
public enum ProcessMemory {
    /// Peak resident set size (VmHWM) since the process started.
    public static func peakResident(pid: Int32) -> Int? { field("VmHWM", pid: pid) }
    /// Resident set size now (VmRSS).
    public static func resident(pid: Int32) -> Int? { field("VmRSS", pid: pid) }
    /// The part of the resident set that is the process's own memory (RssAnon): heap, stacks.
    public static func anonymousResident(pid: Int32) -> Int? { field("RssAnon", pid: pid) }

    private static func field(_ name: String, pid: Int32) -> Int? {
        guard let text = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8) else { return nil }
        for line in text.split(separator: "\n") where line.hasPrefix(name + ":") {
            let kilobytes = line.split(separator: " ", omittingEmptySubsequences: true).dropFirst().first.flatMap { Int($0) }
            return kilobytes.map { $0 * 1024 }
        }
        return nil
    }
}
