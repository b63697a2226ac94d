import HTTPTypes
import NIOCore
import NIOEmbedded
import NIOHTTPTypes
import Testing

@testable import OnTheMapServer

/// What one connection's `RequestBudgetHandler` does at the bounds, on an embedded channel (the
/// memory of a real server under thousands of held bodies is in `HeldBodiesTests`).
@Suite("The request memory budget's connection handler")
struct RequestBudgetHandlerTests {
    static func channel(_ budget: RequestBudget) throws -> EmbeddedChannel {
        let channel = EmbeddedChannel(handler: RequestBudgetHandler(budget: budget, maxBodyBytes: 65_536))
        try channel.connect(to: SocketAddress(ipAddress: "127.0.0.1", port: 1)).wait()
        return channel
    }

    static func post(_ length: Int) -> HTTPRequest {
        HTTPRequest(
            method: .post, scheme: "http", authority: "127.0.0.1", path: "/v1/StudentLocation",
            headerFields: [.contentLength: String(length)])
    }

    static func status(_ channel: EmbeddedChannel) throws -> HTTPResponse.Status? {
        while let part = try channel.readOutbound(as: HTTPResponsePart.self) {
            if case .head(let head) = part { return head.status }
        }
        return nil
    }

    @Test func aBodyThatDoesNotFitIs503AndIsNotPassedOn() throws {
        let budget = RequestBudget(maxConnections: 10, maxHeldBytes: 100_000)
        let first = try Self.channel(budget)
        try first.writeInbound(HTTPRequestPart.head(Self.post(65_000)))
        try first.writeInbound(HTTPRequestPart.body(ByteBuffer(repeating: 0x61, count: 65_000)))
        #expect(try first.readInbound(as: HTTPRequestPart.self) != nil, "the first fits")
        #expect(budget.heldBytes > 65_000)

        let second = try Self.channel(budget)
        try second.writeInbound(HTTPRequestPart.head(Self.post(65_000)))
        #expect(try second.readInbound(as: HTTPRequestPart.self) == nil, "not passed on")
        #expect(try Self.status(second) == .serviceUnavailable)
        #expect(!second.isActive, "and closed")

        // The first is answered: its bytes go back, and the next body fits.
        try first.writeOutbound(HTTPResponsePart.head(HTTPResponse(status: .created)))
        try first.writeOutbound(HTTPResponsePart.end(nil))
        #expect(budget.heldBytes == 0)
        let third = try Self.channel(budget)
        try third.writeInbound(HTTPRequestPart.head(Self.post(65_000)))
        #expect(try third.readInbound(as: HTTPRequestPart.self) != nil)
        // A connection that goes away gives its bytes back too.
        _ = try? third.finish()
        #expect(budget.heldBytes == 0)
    }

    @Test func aBodyLongerThanAnnouncedCannotOutgrowTheBudget() throws {
        let budget = RequestBudget(maxConnections: 10, maxHeldBytes: 10_000)
        let channel = try Self.channel(budget)
        var head = Self.post(0)
        head.headerFields[.contentLength] = nil
        head.headerFields[.transferEncoding] = "chunked"
        try channel.writeInbound(HTTPRequestPart.head(head))
        try channel.writeInbound(HTTPRequestPart.body(ByteBuffer(repeating: 0x61, count: 8_000)))
        #expect(channel.isActive)
        try channel.writeInbound(HTTPRequestPart.body(ByteBuffer(repeating: 0x61, count: 8_000)))
        #expect(!channel.isActive, "cut: its head was passed on, so no answer of its own can be sent")
        #expect(budget.heldBytes == 0)
    }

    @Test func aConnectionBeyondTheCapIsTold503AndClosed() throws {
        let budget = RequestBudget(maxConnections: 2, maxHeldBytes: 1_000_000)
        let open = [try Self.channel(budget), try Self.channel(budget)]
        #expect(open[0].isActive && open[1].isActive)
        let third = try Self.channel(budget)
        third.embeddedEventLoop.run()
        #expect(try Self.status(third) == .serviceUnavailable)
        #expect(!third.isActive)
        #expect(budget.openConnections == 2)
        _ = try? open[0].finish()
        let fourth = try Self.channel(budget)
        fourth.embeddedEventLoop.run()
        #expect(fourth.isActive)
        #expect(try Self.status(fourth) == nil)
    }
}
