import Foundation
import NIOCore
import OnTheMapModels
import OnTheMapRPC
import Synchronization

/// The two answers status bars and scripts ask for most, `status` and the default `students`,
/// serialized once per change of state, so they can be sent straight from the connection's event
/// loop without a trip through the daemon's actors (see `FastPathHandler`).
///
/// Every actor whose state shows in these answers calls `invalidate()` when it changes; the next
/// `status` then takes the ordinary path, which rebuilds them. A generation number stops a rebuild
/// that raced with a change from storing what it read before the change.
final class FastAnswers: Sendable {
    struct Entry: Sendable {
        /// The `status` result without its last member, `uptime`, which is added per request.
        var statusPrefix: String
        /// The default `students` result; nil when logged out or nothing is cached.
        var students: ByteBuffer?
        /// When the answers stop being true without any change of state: the list turns stale, or
        /// the session expires.
        var validUntil: Date?
    }

    private let state = Mutex<(generation: Int, entry: Entry?)>((0, nil))
    let startedAt = ContinuousClock.now

    func invalidate() {
        state.withLock { state in
            state.generation += 1
            state.entry = nil
        }
    }

    var generation: Int { state.withLock { $0.generation } }

    /// The stored answers, if still true now.
    func current(now: Date = Date()) -> Entry? {
        guard let entry = state.withLock({ $0.entry }) else { return nil }
        if let validUntil = entry.validUntil, now >= validUntil { return nil }
        return entry
    }

    /// Stores answers built from state read since `generation` was taken, unless it changed since.
    func store(_ entry: Entry, builtAt generation: Int) {
        state.withLock { state in
            if state.generation == generation { state.entry = entry }
        }
    }

    /// Seconds since the daemon started, to the millisecond.
    func uptime() -> Double {
        ((ContinuousClock.now - startedAt).seconds * 1000).rounded() / 1000
    }

    /// `,"uptime":…}`: the end of the `status` result, as of now.
    func statusSuffix() -> String {
        #","uptime":"# + WireJSON.number(uptime()).serialized + "}"
    }

    /// The reply line to a plain `status` or `students` request (no params), or nil when the request
    /// is anything else or the answers must be rebuilt first.
    func reply(to line: ByteBufferView, allocator: ByteBufferAllocator) -> ByteBuffer? {
        // Plain status and students requests are short; a long line goes the ordinary way unparsed here.
        guard line.count < 256, let entry = current() else { return nil }
        let method: String
        let envelope: (prefix: String, suffix: String)
        if let canonical = CanonicalRequest(line) {
            method = canonical.method
            envelope = RPCResponse.envelope(idJSON: canonical.id)
        } else {
            guard case .single(.success(let request)) = RPCIncoming.parse(line), let id = request.id,
                request.params == nil || request.params == .object([])
            else { return nil }
            method = request.method
            envelope = RPCResponse.envelope(id: id)
        }
        var buffer: ByteBuffer
        switch method {
        case StatusMethod.name:
            let suffix = statusSuffix()
            buffer = allocator.buffer(capacity: envelope.prefix.utf8.count + entry.statusPrefix.utf8.count + suffix.utf8.count + 3)
            buffer.writeString(envelope.prefix)
            buffer.writeString(entry.statusPrefix)
            buffer.writeString(suffix)
        case StudentsMethod.name:
            guard let students = entry.students else { return nil }
            buffer = allocator.buffer(capacity: envelope.prefix.utf8.count + students.readableBytes + 3)
            buffer.writeString(envelope.prefix)
            buffer.writeImmutableBuffer(students)
        default:
            return nil
        }
        buffer.writeString(envelope.suffix)
        buffer.writeInteger(UInt8(ascii: "\n"))
        return buffer
    }
}

/// `{"jsonrpc":"2.0","id":N,"method":"status"}` byte for byte, as the CLI, the clients/ scripts and
/// status bars send it: recognised without building a JSON tree. N is a plain integer (no sign, no
/// leading zero, at most 15 digits), so echoing its bytes is what the full parser would write back.
/// Anything else, however equivalent, is parsed in full.
struct CanonicalRequest {
    var id: String
    var method: String

    private static let head = Array(#"{"jsonrpc":"2.0","id":"#.utf8)
    private static let middle = Array(#","method":""#.utf8)
    private static let tail = Array(#""}"#.utf8)

    private init(id: String, method: String) {
        self.id = id
        self.method = method
    }

    init?(_ line: ByteBufferView) {
        guard let parsed = line.withContiguousStorageIfAvailable(Self.match) ?? nil else { return nil }
        self = parsed
    }

    private static func match(_ bytes: UnsafeBufferPointer<UInt8>) -> CanonicalRequest? {
        guard bytes.count > head.count + middle.count + tail.count, bytes.starts(with: head) else { return nil }
        var index = head.count
        let idStart = index
        while index < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[index]) { index += 1 }
        let digits = index - idStart
        guard (1...15).contains(digits), digits == 1 || bytes[idStart] != UInt8(ascii: "0") else { return nil }
        guard UnsafeBufferPointer(rebasing: bytes[index...]).starts(with: middle) else { return nil }
        let methodStart = index + middle.count
        guard bytes.count - methodStart > tail.count,
            UnsafeBufferPointer(rebasing: bytes[(bytes.count - tail.count)...]).elementsEqual(tail)
        else { return nil }
        let methodBytes = UnsafeBufferPointer(rebasing: bytes[methodStart..<(bytes.count - tail.count)])
        guard methodBytes.allSatisfy({ (UInt8(ascii: "a")...UInt8(ascii: "z")).contains($0) }) else { return nil }
        return CanonicalRequest(
            id: String(decoding: UnsafeBufferPointer(rebasing: bytes[idStart..<index]), as: UTF8.self),
            method: String(decoding: methodBytes, as: UTF8.self))
    }
}
