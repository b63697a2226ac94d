import NIOCore

/// Writes lines straight to the channel.
///
/// Not through `NIOAsyncChannelOutboundWriter`, which refuses to write from a cancelled task: when a
/// shutdown cancels a request still in flight, its error reply must still reach the client. Awaiting
/// the write's future is also the backpressure: a client that does not read only stalls itself.
struct LineWriter: Sendable {
    let channel: any Channel

    func write(_ line: [UInt8]) async throws {
        var buffer = channel.allocator.buffer(capacity: line.count + 1)
        buffer.writeBytes(line)
        buffer.writeInteger(UInt8(ascii: "\n"))
        try await channel.writeAndFlush(buffer).get()
    }
}
