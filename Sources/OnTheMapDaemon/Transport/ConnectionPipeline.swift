import NIOCore

/// The handlers every client connection gets, in order: built in this one place for the listener
/// and for the tests that drive the pipeline on an `EmbeddedChannel`.
enum ConnectionPipeline {
    /// What the connection's task needs from the pipeline.
    struct Parts {
        var idleCloser: IdleCloser
        var fastPath: FastPathHandler
    }

    static func configure(
        _ channel: any Channel, idleTimeout: Duration, feed: StateFeed, answers: PreparedAnswers, inputBudget: InputBudget
    ) throws -> Parts {
        let handlers = channel.pipeline.syncOperations
        if idleTimeout > .zero {
            try handlers.addHandler(IdleStateHandler(readTimeout: TimeAmount(idleTimeout)))
        }
        // Reads stop while the client leaves its answers unread (past the write buffer's high mark),
        // so one client cannot make the daemon queue replies without bound.
        try handlers.addHandler(BackPressureHandler())
        // Newline or Content-Length framing, whichever the client's first bytes speak; the encoder
        // frames every answer the same way.
        let framing = ConnectionFraming()
        try handlers.addHandler(ContentLengthFrameEncoder(framing: framing))
        try handlers.addHandler(
            ByteToMessageHandler(
                FramingDecoder(maxLength: ConnectionHandler.maxLineBytes, framing: framing, budget: inputBudget)))
        // One count of the requests waiting for their answers: the fast path answers only when none
        // are, and a connection waiting for one is not idle.
        let pending = PendingRequests()
        let closer = IdleCloser(pending: pending)
        try handlers.addHandler(closer)
        let fastPath = FastPathHandler(feed: feed, answers: answers, framing: framing, pending: pending)
        try handlers.addHandler(fastPath)
        return Parts(idleCloser: closer, fastPath: fastPath)
    }
}
