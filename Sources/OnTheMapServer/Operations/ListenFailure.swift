import NIOCore

import Glibc

/// The server could not listen: says which address and port, and what to do, instead of NIO's
/// `bind(descriptor:ptr:bytes:): Address already in use (errno: 98)`.
public struct ListenFailure: Error, CustomStringConvertible {
    public let description: String

    /// Recognises a failure to bind `host`:`port`; nil for any other error.
    init?(_ error: any Error, host: String, port: Int) {
        guard let error = error as? IOError, error.description.hasPrefix("bind") else { return nil }
        let reason = String(cString: strerror(error.errnoCode))
        switch error.errnoCode {
        case EADDRINUSE:
            description = "port \(port) is already in use (\(reason) on \(host)); stop what holds it or pick another with --port."
        case EACCES:
            description = "port \(port) needs privileges this process lacks (\(reason) on \(host)); pick a port above 1023 with --port."
        case EADDRNOTAVAIL:
            description = "cannot listen on \(host) (\(reason)): it is not an address of this machine; check --host."
        default:
            description = "cannot listen on \(host) port \(port) (\(reason))."
        }
    }
}
