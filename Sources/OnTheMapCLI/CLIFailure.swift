import ArgumentParser
import OnTheMapClient
import OnTheMapRPC

/// Prints a failure on stderr and turns it into the matching exit code.
enum CLIFailure {
    static func exit(for error: any Error) -> ExitCode {
        let style = Style(enabled: Terminal.colorOnStderr)
        switch error {
        case let error as RPCError:
            Output.error(style.red("onthemap: ") + error.message)
            return status(for: error)
        case let error as ClientError:
            Output.error(style.red("onthemap: ") + error.message)
            return ExitCode(ExitStatus.unreachable)
        case let error as UsageFailure:
            Output.error(style.red("onthemap: ") + error.message)
            return ExitCode(ExitStatus.usage)
        case let error as CommandFailure:
            Output.error(style.red("onthemap: ") + error.message)
            return ExitCode(ExitStatus.daemonError)
        case let error as ExitCode:
            return error
        default:
            Output.error(style.red("onthemap: ") + "\(error)")
            return ExitCode(ExitStatus.daemonError)
        }
    }

    /// 3 when the daemon says there is no (longer a) session, else 1.
    static func status(for error: RPCError) -> ExitCode {
        switch error.code {
        case RPCError.notLoggedInCode, RPCError.sessionExpiredCode: ExitCode(ExitStatus.notLoggedIn)
        default: ExitCode(ExitStatus.daemonError)
        }
    }
}

/// A usage problem found while running (e.g. no terminal to prompt on): exit status 64.
struct UsageFailure: Error {
    var message: String
}

/// A command that could not do its job for a reason outside the daemon (e.g. no program to open a
/// link with): exit status 1.
struct CommandFailure: Error {
    var message: String
}
