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
        let uptime = ContinuousClock.now - startedAt
        let seconds = Double(uptime.components.seconds) + Double(uptime.components.attoseconds) / 1e18
        return (seconds * 1000).rounded() / 1000
    }

    /// `,"uptime":…}`: the end of the `status` result, as of now.
    func statusSuffix() -> String {
        #","uptime":"# + WireJSON.number(uptime()).serialized + "}"
    }

    /// The reply line to a plain `status` or `students` request (no params), or nil when the request
    /// is anything else or the answers must be rebuilt first.
    func reply(to line: ByteBufferView, allocator: ByteBufferAllocator) -> ByteBuffer? {
        // Plain status and students requests are short; a long line goes the ordinary way unparsed here.
        guard line.count < 256, case .single(.success(let request)) = RPCIncoming.parse(line), let id = request.id,
            request.params == nil || request.params == .object([]), let entry = current()
        else { return nil }
        let envelope = RPCResponse.envelope(id: id)
        var buffer: ByteBuffer
        switch request.method {
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

/// How many requests of a connection went down the ordinary path and are not answered yet. The fast
/// path answers only when none are, so replies keep the order of the requests.
final class PendingRequests: Sendable {
    private let count = Atomic<Int>(0)

    func begin() { count.add(1, ordering: .relaxed) }
    func end() { count.subtract(1, ordering: .releasing) }
    var isEmpty: Bool { count.load(ordering: .acquiring) == 0 }
}
