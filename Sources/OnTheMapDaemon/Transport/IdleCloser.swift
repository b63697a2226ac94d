import NIOConcurrencyHelpers
import NIOCore

/// Closes a connection that has been silent for the idle timeout, unless it is subscribed (a status
/// bar waiting for notifications is not idle).
final class IdleCloser: ChannelInboundHandler, Sendable {
    typealias InboundIn = LineFrame
    typealias InboundOut = LineFrame

    /// Set by `subscribe`/`unsubscribe`; read on the channel's event loop.
    let subscribed = NIOLockedValueBox(false)

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        if let idle = event as? IdleStateHandler.IdleStateEvent, idle == .read, !subscribed.withLockedValue({ $0 }) {
            context.close(promise: nil)
            return
        }
        context.fireUserInboundEventTriggered(event)
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        context.fireChannelRead(data)
    }
}
