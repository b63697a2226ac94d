import OnTheMapModels
import Foundation
import NIOCore
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

    private let feed: StateFeed
    private let answers: PreparedAnswers
    let pending: PendingRequests

    init(feed: StateFeed, answers: PreparedAnswers, pending: PendingRequests = PendingRequests()) {
        self.feed = feed
        self.answers = answers
        self.pending = pending
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        if pending.isEmpty, context.channel.isWritable, case .line(let line) = unwrapInboundIn(data),
            let reply = reply(to: line.readableBytesView, allocator: context.channel.allocator)
        {
            context.writeAndFlush(wrapOutboundOut(reply), promise: nil)
            return
        }
        pending.begin()
        context.fireChannelRead(data)
    }

    /// The reply line to a plain `status` or `students` request (no params), or nil when the request
    /// is anything else, or when the session has expired (the ordinary path ends it and says so).
    func reply(to line: ByteBufferView, allocator: ByteBufferAllocator) -> ByteBuffer? {
        // Plain status and students requests are short; a long line goes the ordinary way unparsed here.
        guard line.count < 256, case .single(.success(let request)) = RPCIncoming.parse(line), let id = request.id,
            request.params == nil || request.params == .object([]),
            request.method == StatusParams.method || request.method == StudentsParams.method
        else { return nil }
        let now = Date()
        let snapshot = feed.latest
        if snapshot.session != nil, snapshot.liveSession(at: now) == nil { return nil }
        let prepared = answers.prepared(for: snapshot, now: now)
        let result: ByteBuffer
        if request.method == StatusParams.method {
            result = answers.status(prepared)
        } else {
            guard let students = prepared.students else { return nil }
            result = students
        }
        let envelope = RPCResponse.envelope(id: id)
        var buffer = allocator.buffer(capacity: envelope.prefix.utf8.count + result.readableBytes + envelope.suffix.utf8.count + 1)
        buffer.writeString(envelope.prefix)
        buffer.writeImmutableBuffer(result)
        buffer.writeString(envelope.suffix)
        buffer.writeInteger(UInt8(ascii: "\n"))
        return buffer
    }
}
