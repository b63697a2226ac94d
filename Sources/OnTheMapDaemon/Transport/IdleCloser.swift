import NIOConcurrencyHelpers
import NIOCore

/// Closes a connection that has been silent for the idle timeout, unless it is subscribed (a status
/// bar waiting for notifications is not idle) or waiting for an answer (a login or a first geocode
/// slower than the timeout was cut off, its answer lost).
final class IdleCloser: ChannelInboundHandler, Sendable {
    typealias InboundIn = LineFrame
    typealias InboundOut = LineFrame

    /// Set by `subscribe`/`unsubscribe`; read on the channel's event loop.
    let subscribed = NIOLockedValueBox(false)
    /// The connection's requests not answered yet (shared with the connection's task).
    let pending: PendingRequests

    init(pending: PendingRequests) {
        self.pending = pending
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        // The idle handler fires again a timeout later, so a connection busy now is looked at again.
        if let idle = event as? IdleStateHandler.IdleStateEvent, idle == .read, !subscribed.withLockedValue({ $0 }),
            pending.isEmpty
        {
            context.close(promise: nil)
            return
        }
        context.fireUserInboundEventTriggered(event)
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        pending.begin()
        context.fireChannelRead(data)
    }
}
