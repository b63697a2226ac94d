import NIOCore

/// The whole pipeline of a connection the daemon refuses (a client of another user): once the
/// connection is up it says why, in one line, and ends its side. Said rather than just closed, so the
/// client can tell a refusal from a daemon that crashed.
///
/// Only the daemon's side is closed at once: a client that writes its request after that (Emacs
/// writes once connected) can still send it and then read the answer, where a whole close failed its
/// write (EPIPE; `emacs --batch` died of the SIGPIPE) and the answer was never read. The connection
/// ends when the client closes it, or after `lingering` at most.
final class RefusingHandler: ChannelInboundHandler, Sendable {
    typealias InboundIn = ByteBuffer
    typealias OutboundOut = ByteBuffer

    /// How long a refused client may keep its connection open after the answer.
    static let lingering = TimeAmount.seconds(5)

    private let line: [UInt8]

    init(line: [UInt8]) {
        self.line = line
    }

    func channelActive(context: ChannelHandlerContext) {
        let channel = context.channel
        context.writeAndFlush(wrapOutboundOut(ByteBuffer(bytes: line))).whenComplete { _ in
            channel.close(mode: .output, promise: nil)
        }
        context.eventLoop.scheduleTask(in: Self.lingering) { channel.close(promise: nil) }
    }

    /// Whatever the client sends is not read.
    func channelRead(context: ChannelHandlerContext, data: NIOAny) {}

    /// The client has closed its side too (connections may be half-closed, `RPCListener`): done.
    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        if case .inputClosed = event as? ChannelEvent { context.close(promise: nil) }
    }
}
