import NIOCore

/// The whole pipeline of a connection the daemon refuses (a client of another user): once the
/// connection is up it says why, in one line, and closes it. Said rather than just closed, so the
/// client can tell a refusal from a daemon that crashed.
final class RefusingHandler: ChannelInboundHandler, Sendable {
    typealias InboundIn = ByteBuffer
    typealias OutboundOut = ByteBuffer

    private let line: [UInt8]

    init(line: [UInt8]) {
        self.line = line
    }

    func channelActive(context: ChannelHandlerContext) {
        let close = context.channel
        context.writeAndFlush(wrapOutboundOut(ByteBuffer(bytes: line))).whenComplete { _ in close.close(promise: nil) }
    }

    /// Whatever the client sends is not read.
    func channelRead(context: ChannelHandlerContext, data: NIOAny) {}
}
