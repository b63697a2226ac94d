import Logging
import NIOCore
import OnTheMapModels
import OnTheMapRPC

/// Serves one connection: requests answered in order (pipelining is fine), notifications interleaved.
/// Never throws out to the listener: one bad client cannot take the daemon down.
struct ConnectionHandler: Sendable {
    static let maxLineBytes = 1024 * 1024

    let dispatcher: RPCDispatcher
    let daemon: Daemon
    let logger: Logger

    private func serve(
        _ inbound: NIOAsyncChannelInboundStream<LineFrame>, _ outbound: LineWriter, _ connection: ConnectionSubscription,
        _ idleCloser: IdleCloser
    ) async throws {
        for try await frame in inbound {
            // Counted as read by `IdleCloser`; answered (or found to need no answer) here.
            defer { idleCloser.answered() }
            switch frame {
            case .tooLong:
                let error = RPCError.invalidRequest("request too large (over 1 MiB); the connection is closed")
                try await outbound.write(RPCDispatcher.line(id: .null, .failure(error)))
                return
            case .malformed(let reason):
                try await outbound.write(RPCDispatcher.line(id: .null, .failure(.invalidRequest(reason))))
                return
            case .line(let line):
                if line.readableBytes == 0 { continue }
                if let reply = await dispatcher.respond(to: line.readableBytesView, connection: connection) {
                    try await outbound.write(reply)
                }
            }
        }
    }

    func run(_ channel: NIOAsyncChannel<LineFrame, ByteBuffer>, idleCloser: IdleCloser) async {
        let (notifications, sink) = AsyncStream<RPCNotification>.makeStream(bufferingPolicy: .bufferingNewest(64))
        let underlying = channel.channel
        let connection = ConnectionSubscription(
            subscribers: daemon.subscribers, sink: sink, idleCloser: idleCloser, isOpen: { underlying.isActive })
        do {
            let outbound = LineWriter(channel: channel.channel)
            try await channel.executeThenClose { inbound, _ in
                try await withThrowingTaskGroup(of: Void.self) { group in
                    group.addTask {
                        // Ends when the connection closes its sink below.
                        for await notification in notifications {
                            guard let line = try? WireCoding.encode(notification) else { continue }
                            try await outbound.write(line)
                        }
                    }
                    do {
                        try await serve(inbound, outbound, connection, idleCloser)
                    } catch {
                        logger.debug("connection ended", metadata: ["error": "\(error)"])
                    }
                    connection.close()
                    try await group.waitForAll()
                }
            }
        } catch {
            logger.debug("connection ended", metadata: ["error": "\(error)"])
        }
    }
}
