import FoundationEssentials
import Glibc
import OnTheMapModels
import OnTheMapRPC

/// A blocking JSON-RPC connection to the daemon over its Unix socket: plain sockets, no event loop,
/// so the command-line client starts fast.
///
/// Not thread-safe: one caller at a time (the CLI and a test each own theirs).
public final class RPCConnection {
    private let fd: Int32
    private let path: String
    /// Who listens, for the advice when it does not answer.
    private let peer: SocketPeer?
    /// How long a read waits (nil: for ever), for the message when it gives up.
    private let timeout: Duration?
    /// What was read and not yet returned as a line.
    private var buffer: [UInt8] = []
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
        let peer = SocketPeer(connected: fd)
        if let peer, peer.uid != getuid(), peer.uid != 0 {
            close(fd)
            throw ClientError.untrustedPeer(path, uid: peer.uid)
        }
        if let timeout {
            var value = timeval(tv_sec: Int(timeout.components.seconds), tv_usec: Int(timeout.components.attoseconds / 1_000_000_000_000))
            setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &value, socklen_t(MemoryLayout<timeval>.size))
        }
        self.fd = fd
        self.path = path
        self.peer = peer
        self.timeout = timeout
    }

    deinit {
        close(fd)
    }

    /// The socket, for `poll` (a full-screen client waits on it with the keyboard).
    public var fileDescriptor: Int32 { fd }

    /// Whether a whole line is already read and waiting: `poll` would not report it.
    public var hasBufferedLine: Bool { buffer.contains(UInt8(ascii: "\n")) }

    /// Sends one request without waiting for its answer (`watch` sends its subscription this way).
    public func send(_ request: RPCRequest) throws {
        try send(bytes: request.line)
    }

    /// Sends one line of text as it is (a newline is added): for a request written by hand.
    public func send(line: String) throws {
        try send(bytes: Array(line.utf8) + [UInt8(ascii: "\n")])
    }

    /// Sends bytes as they are.
    public func send(bytes: [UInt8]) throws {
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

    /// The next line from the daemon as text, without its newline; nil when the daemon closed the
    /// connection.
    public func readLine() throws -> String? {
        try readLineBytes().map { String(decoding: $0, as: UTF8.self) }
    }

    /// The next line from the daemon, without its newline; nil when the daemon closed the connection.
    public func readLineBytes() throws -> [UInt8]? {
        while true {
            if let newline = buffer.firstIndex(of: UInt8(ascii: "\n")) {
                defer { buffer.removeSubrange(...newline) }
                return Array(buffer[..<newline])
            }
            var chunk = [UInt8](repeating: 0, count: 64 * 1024)
            let count = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            // A reset is a close too: the daemon closes a connection while the client is still
            // sending (e.g. after refusing an oversized line), and the kernel then resets it.
            if count == 0 || (count < 0 && errno == ECONNRESET) { return nil }
            if count < 0 {
                if errno == EINTR { continue }
                if errno == EAGAIN || errno == EWOULDBLOCK {
                    let seconds = timeout.map { " within \($0.components.seconds) s" } ?? ""
                    throw ClientError(
                        kind: .timeout,
                        message: "onthemapd did not answer\(seconds): it is hung or very busy; if it stays so, \(peer?.restartAdvice ?? "restart it")")
                }
                throw ClientError(kind: .closed, message: "the connection to onthemapd failed: \(String(cString: strerror(errno)))")
            }
            buffer.append(contentsOf: chunk[..<count])
        }
    }

    /// The next line, read as `T`; nil when the daemon closed the connection. A line that is not
    /// what a daemon sends is `malformed`, naming what could not be read.
    public func read<T: Decodable>(_ type: T.Type) throws -> T? {
        guard let line = try readLineBytes() else { return nil }
        do {
            return try WireCoding.decode(type, from: line)
        } catch let error as DecodingError {
            throw ClientError.malformed(error)
        }
    }

    /// Calls `method` and waits for its answer, skipping notifications that arrive meanwhile: the
    /// result read as `Result`, or the daemon's error.
    public func call<Result: Decodable>(
        _ method: String, params: WireJSON? = nil, as type: Result.Type
    ) throws -> Swift.Result<Result, RPCError> {
        let id = nextID
        nextID += 1
        do {
            try send(RPCRequest(id: .integer(id), method: method, params: params))
        } catch let closed as ClientError where closed.kind == .closed {
            // The daemon answers a connection it refuses (another user's) at once and ends its side;
            // one that closed it whole (before RefusingHandler's half-close) failed the request's
            // write: what it said is still there to read.
            guard let reply = try? read(RPCReply<Result>.self), reply.id == nil || reply.id == .null, let said = reply.error
            else { throw closed }
            return .failure(try refusal(said))
        }
        while true {
            guard let reply = try read(RPCReply<Result>.self) else {
                throw ClientError(kind: .closed, message: "onthemapd closed the connection before answering")
            }
            if reply.isNotification { continue }
            // The daemon answers with id null (read as none) when it refuses the connection itself, or
            // could not read the request at all.
            if reply.id == nil || reply.id == .null, let error = reply.error { return .failure(try refusal(error)) }
            guard reply.id == .integer(id) else {
                throw ClientError(kind: .malformed, message: "onthemapd answered a different request")
            }
            do {
                return .success(try reply.outcome())
            } catch {
                return .failure(error)
            }
        }
    }

    /// `error`, the daemon's answer to no request of ours, unless it refused us as another user's
    /// client (-32010): that is thrown as the refusal it is (`ClientError.refused`), which every
    /// client shows as it shows a socket of another user's that it may not open.
    private func refusal(_ error: RPCError) throws -> RPCError {
        guard error.code == RPCError.refusedPeerCode else { return error }
        throw ClientError.refused(at: path, by: peer?.uid ?? 0)
    }

    /// Calls `method` and answers its result as plain JSON, whatever its shape (`onthemap call`).
    public func call(_ method: String, params: WireJSON? = nil) throws -> Swift.Result<WireJSON, RPCError> {
        try call(method, params: params, as: WireJSON.self)
    }
}
