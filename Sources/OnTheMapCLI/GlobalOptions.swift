import ArgumentParser
import OnTheMapClient
import OnTheMapModels
import OnTheMapRPC

/// `--socket`, shared by every subcommand.
struct GlobalOptions: ParsableArguments {
    @Option(
        help:
            "The daemon's socket (default: $ONTHEMAP_SOCKET, else $XDG_RUNTIME_DIR/onthemap/onthemapd.sock, else /run/user/$UID/onthemap/onthemapd.sock, else /tmp/onthemap-$UID/onthemapd.sock).",
        completion: .file()
    )
    var socket: String?

    func connect(timeout: Duration? = .seconds(60)) throws -> RPCConnection {
        try Self.connect(flag: socket, timeout: timeout)
    }

    /// The first daemon that answers among `SocketPath.candidates` over this process's environment.
    static func connect(flag: String?, timeout: Duration? = .seconds(60)) throws -> RPCConnection {
        try RPCConnection.firstAnswering(SocketPath.candidates(flag: flag, environment: Terminal.environment), timeout: timeout)
    }

    /// One call on a fresh connection, its result read into its declared type; RPC errors are thrown.
    func result<Params: RPCRequestType>(_ params: Params) throws -> Params.Response where Params.Response: Decodable {
        try connect().result(params)
    }
}

/// A subcommand whose failures are printed, exiting with the documented codes (`CLIFailure`).
protocol ReportingCommand: ParsableCommand {
    /// The command's work; `run` reports what it throws.
    func execute() throws
}

extension ReportingCommand {
    func run() throws {
        do {
            try execute()
        } catch {
            throw CLIFailure.exit(for: error)
        }
    }
}
