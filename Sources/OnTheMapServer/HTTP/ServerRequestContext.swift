import Hummingbird
import NIOCore

/// The request context: Hummingbird's core storage plus the peer address (for per-address rate limits).
public struct ServerRequestContext: RequestContext, RemoteAddressRequestContext {
    public var coreContext: CoreRequestContextStorage
    /// The client's address; nil in router-level tests, which have no socket.
    public let remoteAddress: SocketAddress?
    /// Request bodies above this size get 413 before being read whole.
    public let maxUploadSize: Int

    public init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
        remoteAddress = source.channel.remoteAddress
        maxUploadSize = ServerRequestContext.bodyLimit
    }

    /// Set once by `buildApplication` before the server starts; read by every context.
    nonisolated(unsafe) static var bodyLimit = 64 * 1024

    /// The client's IP address as text, for rate limiting and logs.
    var clientAddress: String? {
        remoteAddress?.ipAddress
    }
}
