import Foundation

/// A plain TCP connection to a loopback port, for requests sent in pieces (a body trickled in while
/// the server shuts down) that an HTTP client library would send whole.
public final class RawTCPConnection: @unchecked Sendable {
    private let descriptor: Int32

    /// Connects to 127.0.0.1:`port`.
    public init(port: Int) throws {
        // Set only once connected: a throw after it is set runs `deinit`, which would close the
        // descriptor a second time (see `RawSocket.init(path:)`).
        descriptor = try connectLoopback(port: port)
        var timeout = timeval(tv_sec: 30, tv_usec: 0)
        setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
    }

    /// Sends `text` in full.
    public func send(_ text: String) throws {
        var bytes = Array(text.utf8)[...]
        while !bytes.isEmpty {
            let sent = bytes.withUnsafeBytes { Glibc.send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            guard sent > 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EPIPE) }
            bytes = bytes.dropFirst(sent)
        }
    }

    /// Reads until the server closes the connection (or 30 s pass without a byte).
    public func readToEnd() -> String {
        var data = [UInt8]()
        var buffer = [UInt8](repeating: 0, count: 16 * 1024)
        while true {
            let count = buffer.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
            if count < 0, errno == EINTR { continue }
            if count <= 0 { break }
            data.append(contentsOf: buffer[..<count])
        }
        return String(decoding: data, as: UTF8.self)
    }

    /// What the server has done with the connection so far (`peerState`).
    public var peer: PeerState { peerState(descriptor) }

    deinit {
        close(descriptor)
    }
}
