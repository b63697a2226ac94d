import NIOCore

/// Frames each outgoing message as `Content-Length: N\r\n\r\n<body>` on a connection that spoke that
/// framing; on a newline connection it passes messages through untouched.
///
/// Everything the daemon writes (responses, batches, notifications) is one whole JSON text ending in
/// `\n` per write, so this one place sees every message.
final class ContentLengthFrameEncoder: ChannelOutboundHandler, RemovableChannelHandler {
    typealias OutboundIn = ByteBuffer
    typealias OutboundOut = ByteBuffer

    private let framing: ConnectionFraming

    init(framing: ConnectionFraming) {
        self.framing = framing
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        guard framing.mode == .contentLength else {
            context.write(data, promise: promise)
            return
        }
        var body = unwrapOutboundIn(data)
        // The line end belongs to the newline framing; the body is the JSON text alone.
        if body.readableBytesView.last == UInt8(ascii: "\n") { body.moveWriterIndex(to: body.writerIndex - 1) }
        var header = context.channel.allocator.buffer(capacity: 32)
        header.writeString("Content-Length: \(body.readableBytes)\r\n\r\n")
        // Two writes, no copy of the body: the channel sends them in order, in one writev.
        context.write(wrapOutboundOut(header), promise: nil)
        context.write(wrapOutboundOut(body), promise: promise)
    }
}
