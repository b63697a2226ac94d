import Foundation
import OnTheMapRPC

/// A `NOTIFY_SOCKET` stand-in: a Unix datagram socket that records every `sd_notify` message.
public final class NotifySocketListener: @unchecked Sendable {
    public let path: String
    private let fd: Int32
    private let lock = NSLock()
    private var received: [String] = []
    private var reader: Thread?

    /// Binds the socket at `path` and starts recording.
    public init(path: String) throws {
        self.path = path
        fd = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue), 0)
        guard let address = SocketPath.address(path), SocketPath.withSockaddr(address, { bind(fd, $0, $1) }) == 0 else { throw ServerProcessError(message: "cannot bind \(path): \(String(cString: strerror(errno)))") }
        var timeout = timeval(tv_sec: 0, tv_usec: 100_000)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        let thread = Thread { [weak self] in
            var buffer = [UInt8](repeating: 0, count: 4096)
            while let self, !Thread.current.isCancelled {
                let count = buffer.withUnsafeMutableBytes { recv(self.fd, $0.baseAddress, $0.count, 0) }
                if count > 0 {
                    let message = String(decoding: buffer[..<count], as: UTF8.self)
                    self.lock.withLock { self.received.append(message) }
                }
            }
        }
        reader = thread
        thread.start()
    }

    /// Every message so far, one per datagram.
    public var messages: [String] { lock.withLock { received } }

    /// Waits until some message contains `text`.
    public func waitFor(_ text: String, timeout: TimeInterval = 15) -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            if messages.contains(where: { $0.contains(text) }) { return true }
            usleep(20_000)
        }
        return false
    }

    public func close() {
        reader?.cancel()
        usleep(150_000)
        Foundation.close(fd)
        unlink(path)
    }
}
