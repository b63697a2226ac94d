import ArgumentParser
import FoundationEssentials
import OnTheMapClient
import OnTheMapModels
import OnTheMapRPC

#if canImport(Glibc)
import Glibc
#endif

/// `onthemap status` without ArgumentParser: status bars run it every few seconds, and parsing
/// arguments through property wrappers and `Mirror` costs more than the request itself (see
/// docs/benchmarks.md). Anything this does not recognise goes to the full parser, which gives the
/// same results and the usage errors.
enum StatusFastPath {
    /// Runs `status` if `arguments` are only `status` with `--json`, `--format F` and `--socket P`;
    /// returns the exit status, or nil to fall back.
    static func run(_ arguments: [String]) -> Int32? {
        guard arguments.first == "status" else { return nil }
        var json = false
        var format: StatusBarFormat?
        var socket: String?
        var rest = arguments.dropFirst()
        while let argument = rest.popFirst() {
            switch argument {
            case "--json": json = true
            case "--format":
                guard let value = rest.popFirst(), let parsed = StatusBarFormat(rawValue: value) else { return nil }
                format = parsed
            case "--socket":
                guard let value = rest.popFirst() else { return nil }
                socket = value
            default:
                if argument.hasPrefix("--socket=") {
                    socket = String(argument.dropFirst("--socket=".count))
                } else if argument.hasPrefix("--format="), let parsed = StatusBarFormat(rawValue: String(argument.dropFirst("--format=".count))) {
                    format = parsed
                } else {
                    return nil
                }
            }
        }
        return StatusOutput.print(socketCandidates: GlobalOptions.socketCandidates(flag: socket), json: json, format: format)
    }
}

/// Asks the daemon for its status and prints it: what `onthemap status` does, by either path.
enum StatusOutput {
    /// Returns the exit status. With a status-bar `format`, always prints a line and returns 0:
    /// offline is a state for the bar to show, not a failure.
    static func print(socketCandidates: [String], json: Bool, format: StatusBarFormat?) -> Int32 {
        let status = Result { try RPCConnection.firstAnswering(socketCandidates, timeout: .seconds(60)).call(StatusParams.method).get() }
        if let format {
            let value = try? status.get()
            Output.line(format.render(StatusSummary(status: value.map(StatusResult.init(wireJSON:)), now: Date()), status: value))
            return ExitStatus.ok
        }
        switch status {
        case .success(let value):
            Output.line(
                json ? value.serialized : HumanStatus.render(StatusResult(wireJSON: value), style: Style(enabled: Terminal.colorOnStdout), now: Date()))
            return ExitStatus.ok
        case .failure(let error):
            return CLIFailure.exit(for: error).rawValue
        }
    }
}
