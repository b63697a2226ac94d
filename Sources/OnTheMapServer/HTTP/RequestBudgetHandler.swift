import HTTPTypes
import Hummingbird
import NIOCore
import NIOHTTP1
import NIOHTTPTypes
import OnTheMapModels

/// One connection's part of `RequestBudget`: counts the connection, reserves each request's head and
/// announced body before passing it on, and gives the bytes back when the request is answered (or
/// the connection closes).
///
/// Sits right after the HTTP codec, before Hummingbird's connection-state handler: that handler passes
/// no `channelInactive` on, and the budget must see every connection close. A refused request is
/// therefore never seen by it (nor by anything after); everything passed on is, and it still closes a
/// connection idle in the middle of a body after `--idle-timeout`, so a slow body is cut.
///
/// It also answers, in words, a request the HTTP decoder cannot read (a head over `maxHeadBytes`, a
/// malformed line): Hummingbird would answer those with an empty 400.
final class RequestBudgetHandler: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPRequestPart
    typealias InboundOut = HTTPRequestPart
    typealias OutboundIn = HTTPResponsePart
    typealias OutboundOut = HTTPResponsePart

    private let budget: RequestBudget
    /// The largest body a request may have; more is reserved as this much and refused downstream (413).
    private let maxBodyBytes: Int
    /// Bytes reserved for each request passed on and not yet answered, oldest first.
    private var reserved: [Int] = []
    /// Body bytes of the request being read beyond what its head announced (a chunked body).
    private var bodyBeyondAnnounced = 0
    private var announcedLeft = 0
    /// After a refusal: everything more the client sends is dropped until the connection closes.
    private var refusing = false
    private var counted = false

    init(budget: RequestBudget, maxBodyBytes: Int) {
        self.budget = budget
        self.maxBodyBytes = maxBodyBytes
    }

    func handlerAdded(context: ChannelHandlerContext) {
        if context.channel.isActive { count(context) }
    }

    func channelActive(context: ChannelHandlerContext) {
        count(context)
        context.fireChannelActive()
    }

    func channelInactive(context: ChannelHandlerContext) {
        budget.release(reserved.reduce(0, +))
        reserved.removeAll()
        if counted {
            counted = false
            budget.closed()
        }
        context.fireChannelInactive()
    }

    private func count(_ context: ChannelHandlerContext) {
        guard !counted else { return }
        counted = true
        if !budget.opened() {
            refusing = true
            // Once the pipeline is set up (this may run while it is being built).
            context.eventLoop.assumeIsolatedUnsafeUnchecked().execute {
                self.answer(
                    context, .serviceUnavailable,
                    "The server has as many connections as it takes (\(self.budget.maxConnections)); try again in a few seconds.")
            }
        }
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard !refusing else { return }
        switch unwrapInboundIn(data) {
        case .head(let head):
            let announced = head.headerFields[.contentLength].flatMap { Int($0) }.map { min(max($0, 0), maxBodyBytes + 1) } ?? 0
            let bytes = Self.size(of: head) + announced
            guard budget.reserve(bytes) else {
                // An answer now would overtake one still being written for an earlier request.
                if reserved.isEmpty {
                    answer(
                        context, .serviceUnavailable,
                        "The server is holding as many unfinished requests as its memory allows; try again in a few seconds.")
                } else {
                    refusing = true
                    context.close(promise: nil)
                }
                return
            }
            reserved.append(bytes)
            announcedLeft = announced
            bodyBeyondAnnounced = 0
        case .body(let buffer):
            let beyond = buffer.readableBytes - announcedLeft
            announcedLeft = max(0, announcedLeft - buffer.readableBytes)
            if beyond > 0 {
                // The head is passed on already, so no answer of ours can be sent: the connection goes.
                guard budget.reserve(beyond), !reserved.isEmpty else {
                    refusing = true
                    context.close(promise: nil)
                    return
                }
                reserved[reserved.count - 1] += beyond
            }
        case .end:
            break
        }
        context.fireChannelRead(data)
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        if case .end = unwrapOutboundIn(data), !reserved.isEmpty {
            budget.release(reserved.removeFirst())
        }
        context.write(data, promise: promise)
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        // Only between requests: an answer now would overtake one still being written, and a
        // request passed on is Hummingbird's to answer.
        if let error = error as? HTTPParserError, reserved.isEmpty, !refusing {
            if error == .headerOverflow {
                answer(
                    context, .requestHeaderFieldsTooLarge,
                    "The request's address and headers are longer than the server reads (\(Self.maxHeadBytes / 1024) KiB); send a shorter request.")
            } else {
                answer(context, .badRequest, "The request could not be read as HTTP/1.1; check the program that sent it.")
            }
            return
        }
        context.fireErrorCaught(error)
    }

    /// The most bytes of headers the HTTP decoder reads (`App+build.swift` gives it this limit, which
    /// is also Hummingbird's default); a longer head is answered 431.
    static let maxHeadBytes = 80 * 1024

    /// How long a refused client is asked to wait, in seconds: "a few seconds" in the messages.
    static let retryAfterSeconds = 5

    /// Answers `status` with `message` in the API's error body and closes: the request (if any) is
    /// not passed on. A 503 carries `Retry-After`.
    private func answer(_ context: ChannelHandlerContext, _ status: HTTPResponse.Status, _ message: String) {
        refusing = true
        let body = Response.jsonBytes(APIErrorBody(status: Int(status.code), error: message))
        var head = HTTPResponse(status: status)
        head.headerFields[.contentType] = "application/json"
        // As every other answer of the API (NoStoreMiddleware): no cache keeps an error either.
        head.headerFields[.cacheControl] = "no-store"
        head.headerFields[.contentLength] = String(body.readableBytes)
        if status == .serviceUnavailable { head.headerFields[.retryAfter] = String(Self.retryAfterSeconds) }
        head.headerFields[.connection] = "close"
        context.write(wrapOutboundOut(.head(head)), promise: nil)
        context.write(wrapOutboundOut(.body(body)), promise: nil)
        // As Hummingbird's connection-state handler closes after a last answer: the flush writes it
        // to the socket first.
        context.writeAndFlush(wrapOutboundOut(.end(nil)), promise: nil)
        context.close(promise: nil)
    }

    /// What a request head holds in memory, roughly: its fields and target, and a little for their
    /// bookkeeping.
    private static func size(of head: HTTPRequest) -> Int {
        var bytes = 64 + (head.path?.utf8.count ?? 0)
        for field in head.headerFields { bytes += field.name.rawName.utf8.count + field.value.utf8.count + 32 }
        return bytes
    }
}
