import NIOCore

/// Answers plain `status` and `students` requests on the event loop from `FastAnswers`, and passes
/// every other line on to the connection's task. A status bar polling every second costs the daemon
/// a parse and a write, no task switch.
///
/// Only while the channel is writable: once a client's unread answers pass the write buffer's high
/// mark, requests go to the connection's task, which waits for each write (and `BackPressureHandler`
/// stops reading). 100,000 pipelined `students` from a client that never read once took 3 GB.
final class FastPathHandler: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = LineFrame
    typealias InboundOut = LineFrame
    typealias OutboundOut = ByteBuffer

    private let answers: FastAnswers
    /// Called for every request, fast or not (the daemon notes its activity: `MemoryTrimmer`).
    private let onRequest: @Sendable () -> Void
    let pending = PendingRequests()

    init(answers: FastAnswers, onRequest: @escaping @Sendable () -> Void) {
        self.answers = answers
        self.onRequest = onRequest
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        onRequest()
        if pending.isEmpty, context.channel.isWritable, case .line(let line) = unwrapInboundIn(data),
            let reply = answers.reply(to: line.readableBytesView, allocator: context.channel.allocator)
        {
            context.writeAndFlush(wrapOutboundOut(reply), promise: nil)
            return
        }
        pending.begin()
        context.fireChannelRead(data)
    }
}
