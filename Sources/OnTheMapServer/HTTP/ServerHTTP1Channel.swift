import HTTPTypes
import Hummingbird
import HummingbirdCore
import Logging
import NIOCore
import NIOHTTP1
import NIOHTTPTypes
import NIOHTTPTypesHTTP1

/// Hummingbird's HTTP/1.1 channel (`HTTP1Channel.setup` as of Hummingbird 2.28: the same handlers,
/// in the same order, with its defaults) with `RequestBudgetHandler` before the connection-state
/// handler (which passes no `channelInactive` on: the budget must see every connection close) and
/// `CachedListHandler` after it, before the hand-over to Hummingbird's tasks. Compare on upgrades.
///
/// `HTTP1Channel` can add handlers only before the connection-state handler, which would then miss
/// the requests answered from the cache and close a busy connection as idle.
struct ServerHTTP1Channel: ServerChildChannel, HTTPChannelHandler {
    typealias Value = NIOAsyncChannel<HTTPRequestPart, HTTPResponsePart>

    let responder: HTTPChannelHandler.Responder
    let idleTimeout: Duration?
    let shortcut: CachedListShortcut
    /// The server-wide bounds on connections and on memory held for unfinished requests.
    let budget: RequestBudget
    let maxBodyBytes: Int

    func setup(channel: any Channel, logger: Logger) -> EventLoopFuture<Value> {
        channel.eventLoop.makeCompletedFuture {
            // HTTP1Channel's defaults.
            var limits = NIOHTTPDecoderLimitConfiguration()
            limits.maxHeaderFieldSize = 80 * 1024
            limits.maxHeaderListSize = 80 * 1024
            limits.maxHeaderFieldCount = 1000
            let pipeline = channel.pipeline.syncOperations
            try pipeline.configureHTTPServerPipeline(
                withPipeliningAssistance: false,  // requests are taken one at a time by the async channel
                withErrorHandling: false,  // Hummingbird answers parse errors
                withOutboundHeaderValidation: false,  // swift-http-types validates
                withEncoderConfiguration: .init(),
                withDecoderLimitConfiguration: limits)
            try pipeline.addHandler(HTTP1ToHTTPServerCodec(secure: false))
            try pipeline.addHandler(RequestBudgetHandler(budget: budget, maxBodyBytes: maxBodyBytes))
            try pipeline.addHandler(HTTPConnectionStateHandler(idleTimeout: idleTimeout, logger: logger))
            try pipeline.addHandler(CachedListHandler(shortcut: shortcut))
            return try NIOAsyncChannel(
                wrappingChannelSynchronously: channel, configuration: .init(isOutboundHalfClosureEnabled: true))
        }
    }

    func handle(value asyncChannel: Value, logger: Logger) async {
        await handleHTTP(asyncChannel: asyncChannel, logger: logger)
    }
}
