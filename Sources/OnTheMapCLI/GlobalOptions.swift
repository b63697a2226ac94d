import ArgumentParser
import OnTheMapClient
import OnTheMapModels
import OnTheMapRPC

/// `--socket`, shared by every subcommand.
struct GlobalOptions: ParsableArguments {
    @Option(help: "The daemon's socket (default: $ONTHEMAP_SOCKET, else $XDG_RUNTIME_DIR/onthemap/onthemapd.sock).")
    var socket: String?

    var socketPath: String { Self.socketPath(flag: socket) }

    /// `SocketPath.resolve` over this process's environment.
    static func socketPath(flag: String?) -> String {
        SocketPath.resolve(flag: flag, environment: Terminal.environment)
    }

    func connect(timeout: Duration? = .seconds(60)) throws -> RPCConnection {
        try RPCConnection(path: socketPath, timeout: timeout)
    }

    /// One call on a fresh connection; RPC errors are thrown.
    func call(_ method: String, _ params: WireJSON? = nil) throws -> WireJSON {
        try connect().call(method, params: params).get()
    }
}

/// Runs a command body, printing failures and exiting with the documented codes.
func runReportingFailures(_ body: () throws -> Void) throws {
    do {
        try body()
    } catch {
        throw CLIFailure.exit(for: error)
    }
}
