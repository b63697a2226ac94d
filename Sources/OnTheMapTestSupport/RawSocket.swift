import Foundation
import OnTheMapRPC

/// A bare Unix stream socket for tests that misbehave on purpose: send without reading, stop
/// mid-message, hold connections open. Non-blocking, so a test never hangs on a full buffer.
public final class RawSocket: @unchecked Sendable {
    public let fd: Int32

    /// Connects to `path`.
    public init(path: String) throws {
        fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0, let address = SocketPath.address(path),
            SocketPath.withSockaddr(address, { connect(fd, $0, $1) }) == 0
        else {
            let reason = String(cString: strerror(errno))
            if fd >= 0 { Foundation.close(fd) }
            throw ServerProcessError(message: "cannot connect to \(path): \(reason)")
        }
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

    /// Everything the peer sends until it closes or `timeout` passes.
    public func receiveAll(timeout: Duration) -> [UInt8] {
        let deadline = ContinuousClock.now + timeout
        var received: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        while ContinuousClock.now < deadline {
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
}

/// Resident-set figures of a process, from `/proc/PID/status`, in bytes.
public enum ProcessMemory {
    /// Peak resident set size (VmHWM) since the process started.
    public static func peakResident(pid: Int32) -> Int? { field("VmHWM", pid: pid) }
    /// Resident set size now (VmRSS).
    public static func resident(pid: Int32) -> Int? { field("VmRSS", pid: pid) }
    /// The part of the resident set that is pages of mapped files (RssFile): code and read-only data.
    public static func fileResident(pid: Int32) -> Int? { field("RssFile", pid: pid) }
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
