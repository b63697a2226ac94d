import HTTPTypes
import NIOCore
import NIOHTTPTypes

/// One connection's part of `CachedListShortcut`: answers the requests the shortcut can answer, passes
/// every other one on to Hummingbird, and keeps the answers in the order the requests came.
///
/// Sits after Hummingbird's `HTTPConnectionStateHandler`, so that handler sees every request and every
/// answer (its idle timeout and graceful close count them all).
final class CachedListHandler: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPRequestPart
    typealias InboundOut = HTTPRequestPart
    typealias OutboundIn = HTTPResponsePart
    typealias OutboundOut = HTTPResponsePart

    private enum Reading {
        case betweenRequests
        case passedOn
        case answeredHere
    }

    private let shortcut: CachedListShortcut
    private var reading = Reading.betweenRequests
    /// Requests passed on whose answer Hummingbird has not finished writing. While there is one, the
    /// next request is passed on too: an answer written here would overtake it (HTTP/1.1 pipelining).
    private var unansweredPassedOn = 0
    /// A `Connection: close` request was passed on: Hummingbird answers it and closes, reading nothing
    /// after it, so nothing after it is answered here either.
    private var closing = false

    init(shortcut: CachedListShortcut) {
        self.shortcut = shortcut
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch (unwrapInboundIn(data), reading) {
        case (.head(let request), _):
            // Not while the socket is full: a client that sends and never reads would grow the queue
            // of answers without bound. Passed on, the request meets the router's back-pressure.
            // Hummingbird's own test for it (`handleHTTP`): it answers, then closes and reads no more.
            let closes = request.headerFields[.connection] == "close"
            if unansweredPassedOn == 0, !closing, !closes, context.channel.isWritable,
                let answer = shortcut.answer(request)
            {
                reading = .answeredHere
                shortcut.deliver(answer, remote: context.channel.remoteAddress) {
                    context.write(wrapOutboundOut(.head(answer.head)), promise: nil)
                    // A 304 has no body, not even an empty part.
                    if answer.body.readableBytes > 0 { context.write(wrapOutboundOut(.body(answer.body)), promise: nil) }
                    context.writeAndFlush(wrapOutboundOut(.end(nil)), promise: nil)
                }
                return
            }
            reading = .passedOn
            unansweredPassedOn += 1
            if closes { closing = true }
            context.fireChannelRead(data)
        case (.body, .answeredHere):
            break  // a GET's body: ignored, as the router ignores it
        case (.end, .answeredHere):
            reading = .betweenRequests
        case (.end, _):
            reading = .betweenRequests
            context.fireChannelRead(data)
        case (.body, _):
            context.fireChannelRead(data)
        }
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        if case .end = unwrapOutboundIn(data), unansweredPassedOn > 0 {
            unansweredPassedOn -= 1
        }
        context.write(data, promise: promise)
    }
}
