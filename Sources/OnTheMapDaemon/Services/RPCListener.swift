import CSystemd
import Glibc
import Logging
import NIOConcurrencyHelpers
import NIOCore
import NIOPosix
import OnTheMapRPC
import OnTheMapSystemd
import ServiceLifecycle

/// Accepts clients on the Unix socket and serves each in its own child task.
///
/// The shape of swift-nio's `NIOTCPEchoServer`: a discarding task group (finished connections are
/// not retained) and a per-connection handler that never throws out to the listener.
struct RPCListener: Service {
    let daemon: Daemon
    /// A listening socket passed by systemd, used instead of binding `daemon.configuration.socketPath`.
    let activatedSocket: Int32?
    let logger: Logger
    /// Called once the socket accepts connections.
    let onReady: @Sendable () async -> Void

    typealias Accepted = (channel: NIOAsyncChannel<LineFrame, ByteBuffer>, idleCloser: IdleCloser)?

    func run() async throws {
        let path = daemon.configuration.socketPath
        let idleTimeout = await daemon.live.idleTimeout
        let openChannels = NIOLockedValueBox<[ObjectIdentifier: any Channel]>([:])
        let ownUID = getuid()
        let logger = self.logger
        let trimmer = daemon.memoryTrimmer
        let inputBudget = InputBudget()
        let initializer: @Sendable (any Channel) -> EventLoopFuture<Accepted> = { channel in
            Self.peerUID(of: channel).flatMap { peerUID in
                guard peerUID == ownUID else {
                    logger.warning("refused a client of another user", metadata: ["uid": "\(peerUID.map { "\($0)" } ?? "unknown")"])
                    let refusal = RPCDispatcher.line(id: .null, .failure(.refused(ownUID: ownUID))) + [UInt8(ascii: "\n")]
                    return channel.eventLoop.makeCompletedFuture {
                        try channel.pipeline.syncOperations.addHandler(RefusingHandler(line: refusal))
                        return nil
                    }
                }
                return channel.eventLoop.makeCompletedFuture {
                    let idleCloser = try ConnectionPipeline.configure(
                        channel, idleTimeout: idleTimeout, inputBudget: inputBudget)
                    let id = ObjectIdentifier(channel)
                    openChannels.withLockedValue { $0[id] = channel }
                    channel.closeFuture.whenComplete { _ in
                        let left = openChannels.withLockedValue { channels in
                            channels[id] = nil
                            return channels.count
                        }
                        trimmer.connectionClosed(openConnectionsLeft: left)
                    }
                    let asyncChannel = try NIOAsyncChannel<LineFrame, ByteBuffer>(wrappingChannelSynchronously: channel)
                    return (asyncChannel, idleCloser)
                }
            }
        }

        let bootstrap = ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .serverChannelOption(.backlog, value: 1024)
            // A client that sends its requests and then shuts down its write side (socat, `nc -N`)
            // still gets its answers.
            .childChannelOption(.allowRemoteHalfClosure, value: true)
            // At most this much of a client's unread answers is queued before the daemon stops
            // reading its requests (see BackPressureHandler).
            .childChannelOption(.writeBufferWaterMark, value: .init(low: 64 * 1024, high: 256 * 1024))
        let server: NIOAsyncChannel<Accepted, Never>
        if let activatedSocket {
            server = try await bootstrap.bind(activatedSocket, childChannelInitializer: initializer)
            logger.info("serving the socket passed by systemd")
        } else {
            // `DaemonRunner` prepared the path (a private directory, no live daemon) before starting.
            server = try await bootstrap.bind(unixDomainSocketPath: path, childChannelInitializer: initializer)
            // NIO binds under the umask; the 0700 directory closes the gap until this chmod.
            chmod(path, 0o600)
            logger.info("listening", metadata: ["socket": "\(path)"])
        }
        await onReady()

        let handler = ConnectionHandler(
            dispatcher: RPCDispatcher(daemon: daemon, logger: logger), daemon: daemon, logger: logger)
        try await withGracefulShutdownHandler {
            try await withThrowingDiscardingTaskGroup { group in
                try await server.executeThenClose { inbound in
                    for try await accepted in inbound {
                        guard let accepted else { continue }
                        group.addTask {
                            await handler.run(accepted.channel, idleCloser: accepted.idleCloser)
                        }
                    }
                }
            }
        } onGracefulShutdown: {
            logger.notice("stopping: answering the requests already read, then exiting")
            daemon.notifier.stopping()
            server.channel.close(promise: nil)
            // Stop reading from clients; requests already read are still answered, then each closes.
            for channel in openChannels.withLockedValue({ Array($0.values) }) {
                // A client that closed its sending side already (socat, `nc -N`) has no input to
                // close: it waits for its answers like the others.
                channel.close(mode: .input).whenFailure { error in
                    if case ChannelError.inputClosed = error { return }
                    channel.close(promise: nil)
                }
            }
        }
        if activatedSocket == nil { unlink(path) }
    }

    /// The uid of the process on the other end (SO_PEERCRED), or nil if it cannot be read.
    private static func peerUID(of channel: any Channel) -> EventLoopFuture<UInt32?> {
        guard let provider = channel as? any SocketOptionProvider else { return channel.eventLoop.makeSucceededFuture(nil) }
        let future: EventLoopFuture<onthemap_ucred> = provider.unsafeGetSocketOption(
            level: SocketOptionLevel(SOL_SOCKET), name: SocketOptionName(SO_PEERCRED))
        return future.map { Optional($0.uid) }.recover { _ in nil }
    }
}
