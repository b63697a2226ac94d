import Glibc
import OnTheMapRPC

extension RPCConnection {
    /// Connects to the first of `paths` where a daemon answers (see `SocketPath.candidates`). A path
    /// where nothing listens is skipped; a socket served by another user stops the search, loudly.
    public static func firstAnswering(_ paths: [String], timeout: Duration? = .seconds(30)) throws -> RPCConnection {
        var attempts: [ClientError.Attempt] = []
        for path in paths {
            do {
                return try RPCConnection(path: path, timeout: timeout)
            } catch let error as ClientError where error.kind == .cannotConnect {
                attempts += error.attempts
            }
        }
        throw ClientError.cannotConnect(attempts)
    }

}
