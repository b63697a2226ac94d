import Foundation
import NIOCore
import OnTheMapModels
import OnTheMapRPC

/// Answers plain `status` and `students` requests on the event loop, from the answers prepared for
/// the newest state (`PreparedAnswers`), and passes every other line on to the connection's task.
/// A status bar polling every second costs the daemon a parse and a write, no task switch.
///
/// Only while the channel is writable: once a client's unread answers pass the write buffer's high
/// mark, requests go to the connection's task, which waits for each write (and `BackPressureHandler`
/// stops reading). 100,000 pipelined `students` from a client that never read once took 3 GB.
final class FastPathHandler: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = LineFrame
    typealias InboundOut = LineFrame
    typealias OutboundOut = ByteBuffer

    /// A request the fast path answers, with what it needs to write the answer.
    enum Answer {
        /// `status`: the prepared part; the uptime is added as the answer is written.
        case status(id: RPCID, PreparedAnswers.Entry)
        /// `students`: the prepared result, sent as it is.
        case students(id: RPCID, ByteBuffer)
    }

    private let feed: StateFeed
    private let answers: PreparedAnswers
    private let framing: ConnectionFraming
    let pending: PendingRequests

    init(
        feed: StateFeed, answers: PreparedAnswers, framing: ConnectionFraming = ConnectionFraming(),
        pending: PendingRequests = PendingRequests()
    ) {
        self.feed = feed
        self.answers = answers
        self.framing = framing
        self.pending = pending
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        if pending.isEmpty, context.channel.isWritable, case .line(let line) = unwrapInboundIn(data),
            let answer = answer(to: line.readableBytesView)
        {
            write(answer, context: context)
            return
        }
        pending.begin()
        context.fireChannelRead(data)
    }

    /// What a plain `status` or `students` request (no params) is answered with, or nil when the
    /// request is anything else, or when the session has expired (the ordinary path ends it and
    /// says so).
    func answer(to line: ByteBufferView) -> Answer? {
        // Plain status and students requests are short; a long line goes the ordinary way unparsed here.
        guard line.count < 256, case .single(.success(let request)) = RPCIncoming.parse(line), let id = request.id,
            request.params == nil || request.params == .object([]),
            request.method == StatusParams.method || request.method == StudentsParams.method
        else { return nil }
        let now = Date()
        // Answers already built for the newest version are true only while the session lasts, so
        // only the first request after a change, or after they ran out, reads the whole snapshot.
        let entry: PreparedAnswers.Entry
        if let built = answers.built(for: feed.version, now: now) {
            entry = built
        } else {
            let snapshot = feed.latest
            if snapshot.session != nil, snapshot.liveSession(at: now) == nil { return nil }
            entry = answers.prepared(for: snapshot, now: now)
        }
        if request.method == StatusParams.method { return .status(id: id, entry) }
        guard let students = entry.students else { return nil }
        return .students(id: id, students)
    }

    /// The whole reply line to a plain `status` or `students` request, or nil (see `answer(to:)`).
    func reply(to line: ByteBufferView, allocator: ByteBufferAllocator) -> ByteBuffer? {
        answer(to: line).map { replyLine(for: $0, allocator: allocator) }
    }

    private func replyLine(for answer: Answer, allocator: ByteBufferAllocator) -> ByteBuffer {
        switch answer {
        case .status(let id, let entry):
            let envelope = RPCResponse.envelope(id: id)
            var buffer = allocator.buffer(capacity: envelope.prefix.utf8.count + entry.statusPrefix.readableBytes + 48)
            buffer.writeString(envelope.prefix)
            answers.writeStatus(entry, into: &buffer)
            buffer.writeString(envelope.suffix)
            buffer.writeInteger(UInt8(ascii: "\n"))
            return buffer
        case .students(let id, let result):
            let envelope = RPCResponse.envelope(id: id)
            var buffer = allocator.buffer(capacity: envelope.prefix.utf8.count + result.readableBytes + envelope.suffix.utf8.count + 1)
            buffer.writeString(envelope.prefix)
            buffer.writeImmutableBuffer(result)
            buffer.writeString(envelope.suffix)
            buffer.writeInteger(UInt8(ascii: "\n"))
            return buffer
        }
    }

    private func write(_ answer: Answer, context: ChannelHandlerContext) {
        // On a newline connection the prepared students result goes out as it is, between its
        // envelope's two ends, in one writev: no copy of its tens of kilobytes per request. A
        // Content-Length connection frames each write as a message, so it gets the whole line.
        if case .students(let id, let result) = answer, framing.mode == .lines {
            let envelope = RPCResponse.envelope(id: id)
            let allocator = context.channel.allocator
            var head = allocator.buffer(capacity: envelope.prefix.utf8.count)
            head.writeString(envelope.prefix)
            var tail = allocator.buffer(capacity: envelope.suffix.utf8.count + 1)
            tail.writeString(envelope.suffix)
            tail.writeInteger(UInt8(ascii: "\n"))
            context.write(wrapOutboundOut(head), promise: nil)
            context.write(wrapOutboundOut(result), promise: nil)
            context.writeAndFlush(wrapOutboundOut(tail), promise: nil)
            return
        }
        context.writeAndFlush(wrapOutboundOut(replyLine(for: answer, allocator: context.channel.allocator)), promise: nil)
    }
}
