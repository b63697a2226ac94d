import NIOCore

/// The handlers every client connection gets, in order: built in this one place for the listener
/// and for the tests that drive the pipeline on an `EmbeddedChannel`.
enum ConnectionPipeline {
    /// Adds the handlers; answers the idle closer, which the connection's task tells of its answers.
    static func configure(_ channel: any Channel, idleTimeout: Duration, inputBudget: InputBudget) throws -> IdleCloser {
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
        // A connection waiting for an answer is not idle: the closer counts the requests read.
        let closer = IdleCloser()
        try handlers.addHandler(closer)
        return closer
    }
}
