import Hummingbird
import NIOCore

/// The request context: Hummingbird's core storage plus the peer address (for per-address rate limits).
public struct ServerRequestContext: RequestContext, RemoteAddressRequestContext {
    public var coreContext: CoreRequestContextStorage
    /// The client's address; nil in router-level tests, which have no socket.
    public let remoteAddress: SocketAddress?

    public init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
        remoteAddress = source.channel.remoteAddress
    }

    /// The client's IP address as text, for rate limiting and logs.
    var clientAddress: String? {
        remoteAddress?.ipAddress
    }
}
