import Foundation
import NIOCore
import NIOEmbedded
import OnTheMapModels
import OnTheMapTestSupport
import Testing

@testable import OnTheMapDaemon

/// The connection's handlers as the listener installs them, on an embedded channel: a framed
/// client's request reaches the connection's task as one frame and its answer goes back framed; a
/// newline client still gets a line.
@Suite("Framing in the connection pipeline", .ownThreads)
struct FramingPipelineTests {
    /// The listener's pipeline, on an embedded channel.
    private func channel() throws -> EmbeddedChannel {
        let channel = EmbeddedChannel()
        _ = try ConnectionPipeline.configure(channel, idleTimeout: .zero, inputBudget: InputBudget())
        return channel
    }

    /// Everything written to the client so far, as one string.
    private func written(_ channel: EmbeddedChannel) throws -> String {
        var text = ""
        while let buffer = try channel.readOutbound(as: ByteBuffer.self) { text += String(buffer: buffer) }
        return text
    }

    @Test func aFramedClientsRequestIsOneFrameAndItsAnswerIsFramed() throws {
        let channel = try channel()
        let body = #"{"jsonrpc":"2.0","id":7,"method":"status"}"#
        try channel.writeInbound(ByteBuffer(string: "Content-Length: \(body.utf8.count)\r\n\r\n\(body)"))
        guard case .line(let frame)? = try channel.readInbound(as: LineFrame.self) else {
            Issue.record("no frame")
            return
        }
        #expect(String(buffer: frame) == body)
        let answer = #"{"id":7,"jsonrpc":"2.0","result":{}}"#
        try channel.writeOutbound(ByteBuffer(string: answer + "\n"))
        let reply = try written(channel)
        let match = try #require(reply.wholeMatch(of: /Content-Length: (\d+)\r\n\r\n(\{.*\})/))
        #expect(Int(match.1) == match.2.utf8.count)
        #expect(match.2 == answer)
        _ = try channel.finish()
    }

    @Test func aNewlineClientsRequestIsOneFrameAndItsAnswerALine() throws {
        let channel = try channel()
        try channel.writeInbound(ByteBuffer(string: #"{"jsonrpc":"2.0","id":7,"method":"status"}"# + "\n"))
        guard case .line(let frame)? = try channel.readInbound(as: LineFrame.self) else {
            Issue.record("no frame")
            return
        }
        #expect(String(buffer: frame) == #"{"jsonrpc":"2.0","id":7,"method":"status"}"#)
        try channel.writeOutbound(ByteBuffer(string: "{}\n"))
        #expect(try written(channel) == "{}\n")
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
