#if canImport(Glibc)
import Glibc
#endif
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import OnTheMapModels
import OnTheMapRPC

/// A blocking JSON-RPC connection to the daemon over its Unix socket: plain sockets, no event loop,
/// so the command-line client starts fast.
///
/// Not thread-safe: one caller at a time (the CLI and a test each own theirs).
public final class RPCConnection {
    private let fd: Int32
    private var buffer: [UInt8] = []
    /// Where `recv` writes: allocated once and never zeroed, so a short answer touches one page
    /// (a zeroed 64 KiB array per read faulted in 16, a tenth of `onthemap status`'s run).
    private let chunk: UnsafeMutableRawBufferPointer
    private var nextID = 1

    /// Connects; `timeout` bounds each read (nil waits forever, as `watch` does).
    public init(path: String, timeout: Duration? = .seconds(30)) throws {
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw ClientError.cannotConnect(path, errno: errno) }
        guard let address = SocketPath.address(path) else {
            close(fd)
            throw ClientError.cannotConnect([ClientError.Attempt(path: path, reason: "the path is longer than a socket address holds")])
        }
        let connected = SocketPath.withSockaddr(address) { connect(fd, $0, $1) }
        guard connected == 0 else {
            let code = errno
            close(fd)
            throw ClientError.cannotConnect(path, errno: code)
        }
        // Before sending anything (a login carries the password): only our own daemon, or root's.
        let peer = Self.peerUID(fd)
        if let peer, peer != getuid(), peer != 0 {
            close(fd)
            throw ClientError.untrustedPeer(path, uid: peer)
        }
        if let timeout {
            var value = timeval(tv_sec: Int(timeout.components.seconds), tv_usec: Int(timeout.components.attoseconds / 1_000_000_000_000))
            setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &value, socklen_t(MemoryLayout<timeval>.size))
        }
        self.fd = fd
        chunk = UnsafeMutableRawBufferPointer.allocate(byteCount: 64 * 1024, alignment: 16)
    }

    /// The uid of the process that listens on the other end (SO_PEERCRED), or nil if unknown.
    private static func peerUID(_ fd: Int32) -> UInt32? {
        // `struct ucred` { pid_t pid; uid_t uid; gid_t gid; }: Glibc hides it behind _GNU_SOURCE.
        var credentials: (pid: Int32, uid: UInt32, gid: UInt32) = (0, 0, 0)
        var length = socklen_t(MemoryLayout.size(ofValue: credentials))
        let status = withUnsafeMutableBytes(of: &credentials) { getsockopt(fd, SOL_SOCKET, SO_PEERCRED, $0.baseAddress, &length) }
        return status == 0 ? credentials.uid : nil
    }

    deinit {
        close(fd)
        chunk.deallocate()
    }

    /// The socket, for `poll` (a full-screen client waits on it with the keyboard).
    public var fileDescriptor: Int32 { fd }

    /// Whether a whole line is already read and waiting: `poll` would not report it.
    public var hasBufferedLine: Bool { buffer.contains(UInt8(ascii: "\n")) }

    /// Sends one line (a newline is added).
    public func send(line: String) throws {
        var bytes = Array(line.utf8)
        bytes.append(UInt8(ascii: "\n"))
        try send(bytes: bytes)
    }

    /// Sends bytes as they are.
    func send(bytes: [UInt8]) throws {
        var offset = 0
        while offset < bytes.count {
            let written = bytes[offset...].withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if written < 0 {
                if errno == EINTR { continue }
                throw ClientError(kind: .closed, message: "the connection to onthemapd was closed")
            }
            offset += written
        }
    }

    /// The next line from the daemon, without its newline; nil when the daemon closed the connection.
    public func readLine() throws -> String? {
        guard let newline = try bufferLine() else { return nil }
        defer { buffer.removeSubrange(...newline) }
        return String(decoding: buffer[..<newline], as: UTF8.self)
    }

    /// The next message (response or notification), parsed. A line that is not JSON, invalid UTF-8
    /// included, is `malformed`: the daemon writes UTF-8, so anything else is not its answer.
    public func readMessage() throws -> WireJSON? {
        guard let newline = try bufferLine() else { return nil }
        defer { buffer.removeSubrange(...newline) }
        // Parsed where it was read: no String of the line, no copy.
        let parsed = buffer.withUnsafeBufferPointer { all in
            Result { () throws(WireJSON.ParseError) in try WireJSON.parse(UnsafeBufferPointer(rebasing: all[..<newline])) }
        }
        guard case .success(let message) = parsed else {
            throw ClientError(kind: .malformed, message: "onthemapd sent a line that is not JSON")
        }
        return message
    }

    /// Reads until `buffer` holds a whole line and returns the index of its newline; nil when the
    /// daemon closed the connection first.
    private func bufferLine() throws -> Int? {
        while true {
            if let newline = buffer.firstIndex(of: UInt8(ascii: "\n")) { return newline }
            let count = recv(fd, chunk.baseAddress, chunk.count, 0)
            // A reset is a close too: the daemon closes a connection while the client is still
            // sending (e.g. after refusing an oversized line), and the kernel then resets it.
            if count == 0 || (count < 0 && errno == ECONNRESET) { return nil }
            if count < 0 {
                if errno == EINTR { continue }
                if errno == EAGAIN || errno == EWOULDBLOCK {
                    throw ClientError(kind: .timeout, message: "onthemapd did not answer in time")
                }
                throw ClientError(kind: .closed, message: "the connection to onthemapd failed: \(String(cString: strerror(errno)))")
            }
            buffer.append(contentsOf: UnsafeRawBufferPointer(rebasing: chunk[..<count]))
        }
    }

    /// Calls a method and waits for its response, skipping notifications that arrive meanwhile.
    public func call(_ method: String, params: WireJSON? = nil) throws -> Result<WireJSON, RPCError> {
        let id = nextID
        nextID += 1
        try send(bytes: RPCRequest(id: .integer(id), method: method, params: params).line)
        while true {
            guard let message = try readMessage() else {
                throw ClientError(kind: .closed, message: "onthemapd closed the connection before answering")
            }
            guard message["id"] != nil else { continue }  // a notification
            guard let response = RPCResponse(parsing: message), response.id == .integer(id) else {
                throw ClientError(kind: .malformed, message: "onthemapd answered a different request")
            }
            return response.outcome
        }
    }
}
