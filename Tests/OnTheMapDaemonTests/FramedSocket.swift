import Foundation
import OnTheMapModels
import OnTheMapTestSupport
import OnTheMapRPC

/// A raw client of the daemon's socket speaking the LSP base framing (`Content-Length: N\r\n\r\n`),
/// written here byte by byte so the tests see exactly what goes over the wire.
final class FramedSocket {
    private let fd: Int32
    private var buffer: [UInt8] = []

    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    /// Connects; every read waits at most `timeout`.
    init(path: String, timeout: Int = 10) throws {
        // Set only once connected: a throw after it is set runs `deinit`, which would close the
        // descriptor a second time (see `RawSocket.init(path:)`).
        let descriptor = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        guard let address = SocketPath.address(path),
            SocketPath.withSockaddr(address, { connect(descriptor, $0, $1) }) == 0
        else {
            close(descriptor)
            throw Failure(description: "cannot connect to \(path)")
        }
        fd = descriptor
        var value = timeval(tv_sec: timeout, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &value, socklen_t(MemoryLayout<timeval>.size))
    }

    deinit {
        close(fd)
    }

    /// `Content-Length: N\r\n\r\n` + `json`, N counted in UTF-8 bytes.
    static func frame(_ json: String, extraHeaders: String = "") -> String {
        "Content-Length: \(json.utf8.count)\r\n\(extraHeaders)\r\n\(json)"
    }

    /// Sends bytes as they are; false when the daemon has closed the connection.
    @discardableResult
    func send(_ text: String) -> Bool {
        let bytes = Array(text.utf8)
        var offset = 0
        while offset < bytes.count {
            let written = bytes[offset...].withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if written < 0 {
                if errno == EINTR { continue }
                return false
            }
            offset += written
        }
        return true
    }

    /// Sends a request in Content-Length framing.
    func request(_ json: String) {
        send(Self.frame(json))
    }

    /// Ends the client's sending side; the daemon still answers what it has read.
    func shutdownWrite() {
        shutdown(fd, Int32(SHUT_WR))
    }

    /// Reads more bytes; false at end of stream (or a reset, which is how a close can arrive).
    private func fill() throws -> Bool {
        var chunk = [UInt8](repeating: 0, count: 65536)
        while true {
            let count = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if count > 0 {
                buffer.append(contentsOf: chunk[..<count])
                return true
            }
            if count == 0 || errno == ECONNRESET { return false }
            if errno == EINTR { continue }
            throw Failure(description: "no answer in time (\(String(cString: strerror(errno))))")
        }
    }

    /// The next framed message: its header block (without the blank line) and its body; nil at end
    /// of stream. Fails when the daemon sends anything that is not exactly this framing.
    func readFrame() throws -> (headers: String, body: String)? {
        let separator = Array("\r\n\r\n".utf8)
        var headerEnd: Int?
        while headerEnd == nil {
            if buffer.count >= separator.count {
                headerEnd = (0...(buffer.count - separator.count)).first { buffer[$0..<($0 + separator.count)].elementsEqual(separator) }
            }
            if headerEnd == nil, try !fill() {
                if buffer.isEmpty { return nil }
                throw Failure(description: "the stream ended inside headers: \(String(decoding: buffer, as: UTF8.self).prefix(80))")
            }
        }
        let headers = String(decoding: buffer[..<headerEnd!], as: UTF8.self)
        guard let match = headers.wholeMatch(of: /Content-Length: (\d+)/), let length = Int(match.1) else {
            throw Failure(description: "unexpected headers: \(headers.prefix(80))")
        }
        let bodyStart = headerEnd! + separator.count
        while buffer.count < bodyStart + length {
            if try !fill() { throw Failure(description: "the stream ended inside a body") }
        }
        let body = String(decoding: buffer[bodyStart..<(bodyStart + length)], as: UTF8.self)
        buffer.removeSubrange(..<(bodyStart + length))
        return (headers, body)
    }

    /// The next framed message, parsed; nil at end of stream (as `RPCConnection.read` reads a line).
    func read(_: WireJSON.Type) throws -> WireJSON? {
        guard let frame = try readFrame() else { return nil }
        return try JSONText.parse(frame.body.utf8)
    }
}
