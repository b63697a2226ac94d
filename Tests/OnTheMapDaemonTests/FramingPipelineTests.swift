import Foundation
import NIOCore
import NIOEmbedded
import OnTheMapModels
import OnTheMapTestSupport
import Testing

@testable import OnTheMapDaemon

/// The connection's handlers as the listener installs them, on an embedded channel: the fast path
/// answers a framed client on the event loop, framed; a newline client still gets a line.
@Suite("Framing in the connection pipeline", .ownThreads)
struct FramingPipelineTests {
    /// The listener's pipeline, on an embedded channel.
    private func channel() throws -> EmbeddedChannel {
        let channel = EmbeddedChannel()
        _ = try ConnectionPipeline.configure(
            channel, idleTimeout: .zero, feed: StateFeed(DaemonSnapshot(staleAfter: 600)),
            answers: PreparedAnswers(version: "x", apiURL: "http://127.0.0.1:1/v1"), inputBudget: InputBudget())
        return channel
    }

    /// Everything written to the client so far, as one string.
    private func written(_ channel: EmbeddedChannel) throws -> String {
        var text = ""
        while let buffer = try channel.readOutbound(as: ByteBuffer.self) { text += String(buffer: buffer) }
        return text
    }

    @Test func fastPathAnswersAFramedClientFramed() throws {
        let channel = try channel()
        let body = #"{"jsonrpc":"2.0","id":7,"method":"status"}"#
        try channel.writeInbound(ByteBuffer(string: "Content-Length: \(body.utf8.count)\r\n\r\n\(body)"))
        let reply = try written(channel)
        let match = try #require(reply.wholeMatch(of: /Content-Length: (\d+)\r\n\r\n(\{.*\})/))
        #expect(Int(match.1) == match.2.utf8.count)
        #expect(match.2.hasPrefix(#"{"jsonrpc":"2.0","id":7,"result":{"version":"x","apiURL":"#))
        #expect(match.2.contains(#""uptime":"#))
        // Answered on the event loop: nothing went on to the connection's task.
        #expect(try channel.readInbound(as: LineFrame.self) == nil)
        _ = try channel.finish()
    }

    @Test func fastPathAnswersANewlineClientWithALine() throws {
        let channel = try channel()
        try channel.writeInbound(ByteBuffer(string: #"{"jsonrpc":"2.0","id":7,"method":"status"}"# + "\n"))
        let reply = try written(channel)
        #expect(reply.hasPrefix(#"{"jsonrpc":"2.0","id":7,"result":{"version":"x""#))
        #expect(reply.hasSuffix("}\n"))
        _ = try channel.finish()
    }

    @Test func headersSplitAcrossReadsAreSniffedOnceComplete() throws {
        let channel = try channel()
        for piece in ["Con", "tent-Len", "gth: 2\r", "\n\r\n{}"] {
            try channel.writeInbound(ByteBuffer(string: piece))
        }
        guard case .line(let body)? = try channel.readInbound(as: LineFrame.self) else {
            Issue.record("no frame")
            return
        }
        #expect(String(buffer: body) == "{}")
        _ = try channel.finish()
    }

    @Test(arguments: [
        ("{", ConnectionFraming.Mode.lines), ("[", .lines), (" ", .lines), ("\n", .lines), ("C{", .lines),
        ("Contents", .lines), ("CONTENT-TYPE: x", .contentLength), ("content-", .contentLength),
    ])
    func theFirstBytesDecide(start: String, mode: ConnectionFraming.Mode) throws {
        #expect(FramingDecoder.sniff(ByteBuffer(string: start).readableBytesView) == mode)
    }

    @Test func tooFewBytesWaitForMore() throws {
        #expect(FramingDecoder.sniff(ByteBuffer(string: "Cont").readableBytesView) == nil)
        #expect(FramingDecoder.sniff(ByteBuffer().readableBytesView) == nil)
    }
}
