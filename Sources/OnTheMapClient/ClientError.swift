#if canImport(Glibc)
import Glibc
#endif

/// Why the client could not talk to the daemon.
public struct ClientError: Error, Sendable, Hashable, CustomStringConvertible {
    public enum Kind: Sendable, Hashable {
        /// No daemon at the socket path (missing, refused, or not permitted).
        case cannotConnect
        /// The daemon closed the connection.
        case closed
        /// No answer within the timeout.
        case timeout
        /// The daemon sent something that is not JSON-RPC.
        case malformed
    }

    public var kind: Kind
    public var message: String

    /// An error of `kind` with a message for people.
    public init(kind: Kind, message: String) {
        self.kind = kind
        self.message = message
    }

    public var description: String { message }

    static func cannotConnect(_ path: String, errno code: Int32) -> ClientError {
        let reason = String(cString: strerror(code))
        return ClientError(
            kind: .cannotConnect,
            message: """
                cannot reach onthemapd at \(path) (\(reason)). Start it with `systemctl --user start onthemapd.socket`, \
                or run `onthemapd`.
                """)
    }
}
