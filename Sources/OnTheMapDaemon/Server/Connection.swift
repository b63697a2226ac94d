import Foundation
import Logging
import NIOCore
import OnTheMapModels
import OnTheMapRPC
import NIOConcurrencyHelpers

/// One client connection's subscription state. Actor-isolated.
actor Connection: ConnectionControl {
    private let id = UUID()
    private let events: EventBus
    private let sink: EventBus.Sink
    private let idleCloser: IdleCloser

    init(events: EventBus, sink: EventBus.Sink, idleCloser: IdleCloser) {
        self.events = events
        self.sink = sink
        self.idleCloser = idleCloser
    }

    func subscribe(_ selected: Set<RPCEvent>) async {
        idleCloser.subscribed.withLockedValue { $0 = true }
        await events.subscribe(id, events: selected, sink: sink)
    }

    func unsubscribe() async {
        idleCloser.subscribed.withLockedValue { $0 = false }
        await events.unsubscribe(id)
    }

    func close() async {
        await events.unsubscribe(id)
        sink.finish()
    }
}

/// Serves one connection: requests answered in order (pipelining is fine), notifications interleaved.
/// Never throws out to the listener: one bad client cannot take the daemon down.
struct ConnectionHandler: Sendable {
    static let maxLineBytes = 1024 * 1024

    let dispatcher: RPCDispatcher
    let daemon: Daemon
    let logger: Logger

    private func serve(
        _ inbound: NIOAsyncChannelInboundStream<LineFrame>, _ outbound: LineWriter, _ connection: Connection,
        _ pending: PendingRequests
    ) async throws {
        for try await frame in inbound {
            // Counted once answered (or found to need no answer): see `FastPathHandler`.
            defer { pending.end() }
            switch frame {
            case .tooLong:
                let error = RPCError.invalidRequest("request too large (over 1 MiB); the connection is closed")
                try await outbound.write(RPCResponse(id: .null, outcome: .failure(error)).serialized)
                return
            case .malformed(let reason):
                try await outbound.write(RPCResponse(id: .null, outcome: .failure(.invalidRequest(reason))).serialized)
                return
            case .line(let line):
                if line.readableBytes == 0 { continue }
                if let reply = await dispatcher.respond(to: line.readableBytesView, connection: connection) {
                    try await outbound.write(reply)
                }
            }
        }
    }

    func run(_ channel: NIOAsyncChannel<LineFrame, ByteBuffer>, idleCloser: IdleCloser, pending: PendingRequests) async {
        let (notifications, sink) = AsyncStream<RPCNotification>.makeStream(bufferingPolicy: .bufferingNewest(64))
        let connection = Connection(events: daemon.events, sink: sink, idleCloser: idleCloser)
        do {
            let outbound = LineWriter(channel: channel.channel)
            try await channel.executeThenClose { inbound, _ in
                try await withThrowingTaskGroup(of: Void.self) { group in
                    group.addTask {
                        // Ends when the connection closes its sink below.
                        for await notification in notifications {
                            try await outbound.write(notification.serialized)
                        }
                    }
                    do {
                        try await serve(inbound, outbound, connection, pending)
                    } catch {
                        logger.debug("connection ended", metadata: ["error": "\(error)"])
                    }
                    await connection.close()
                    try await group.waitForAll()
                }
            }
        } catch {
            logger.debug("connection ended", metadata: ["error": "\(error)"])
        }
    }
}

/// Writes lines straight to the channel.
///
/// Not through `NIOAsyncChannelOutboundWriter`, which refuses to write from a cancelled task: when a
/// shutdown cancels a request still in flight, its error reply must still reach the client. Awaiting
/// the write's future is also the backpressure: a client that does not read only stalls itself.
struct LineWriter: Sendable {
    let channel: any Channel

    func write(_ line: String) async throws {
        var buffer = channel.allocator.buffer(capacity: line.utf8.count + 1)
        buffer.writeString(line)
        buffer.writeInteger(UInt8(ascii: "\n"))
        try await channel.writeAndFlush(buffer).get()
    }

    func write(_ line: [UInt8]) async throws {
        var buffer = channel.allocator.buffer(capacity: line.count + 1)
        buffer.writeBytes(line)
        buffer.writeInteger(UInt8(ascii: "\n"))
        try await channel.writeAndFlush(buffer).get()
    }
}
