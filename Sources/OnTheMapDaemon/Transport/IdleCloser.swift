import NIOConcurrencyHelpers
import NIOCore
import Synchronization

/// Closes a connection that has been silent for the idle timeout, unless it is subscribed (a status
/// bar waiting for notifications is not idle) or waiting for an answer (a login or a first geocode
/// slower than the timeout was cut off, its answer lost).
final class IdleCloser: ChannelInboundHandler, Sendable {
    typealias InboundIn = LineFrame
    typealias InboundOut = LineFrame

    /// Set by `subscribe`/`unsubscribe`; read on the channel's event loop.
    let subscribed = NIOLockedValueBox(false)
    /// How many of the connection's requests were read and are not answered yet: counted up as a
    /// frame passes here, down once the connection's task has answered it (`answered()`).
    private let pending = Atomic<Int>(0)

    /// The connection's task has answered a request (or found it needs no answer).
    func answered() { pending.subtract(1, ordering: .releasing) }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        // The idle handler fires again a timeout later, so a connection busy now is looked at again.
        if let idle = event as? IdleStateHandler.IdleStateEvent, idle == .read, !subscribed.withLockedValue({ $0 }),
            pending.load(ordering: .acquiring) == 0
        {
            context.close(promise: nil)
            return
        }
        context.fireUserInboundEventTriggered(event)
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        pending.add(1, ordering: .relaxed)
        context.fireChannelRead(data)
    }
}
