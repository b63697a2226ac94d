import ArgumentParser
import OnTheMapClient
import OnTheMapModels
import OnTheMapRPC
import OnTheMapSupport

/// Prints a failure on stderr and turns it into the matching exit code.
///
/// Every message is one line for a person: what happened, then what to do, in the user's words
/// (on a terminal narrower than it, broken between words).
/// The daemon's own errors (not logged in, no such place, the API's answers) are written that way
/// already; the protocol's (a request it could not read) would only say "Invalid params", so they
/// are put in words here.
enum CLIFailure {
    static func exit(for error: any Error) -> ExitCode {
        if let error = error as? ExitCode { return error }
        let (sentence, code) = said(for: error)
        // Fitted without the prefix's colour, which has no width; the prefix is coloured after.
        let fitted = Terminal.fittedToStderr("onthemap: " + sentence).dropFirst("onthemap: ".count)
        Output.error(prefix + fitted)
        return code
    }

    /// "onthemap: ", red on a terminal: what every message on stderr begins with.
    static var prefix: String { Style(enabled: Terminal.colorOnStderr).red("onthemap: ") }

    /// What `error` says after "onthemap: ", and its exit code.
    private static func said(for error: any Error) -> (String, ExitCode) {
        switch error {
        case let error as RPCError:
            // The daemon's words may quote others' (an upstream's error, a name): cleaned like them.
            (DisplayText.clean(ArgumentFailure.continuingThePrefix(message(for: error))), status(for: error))
        case let error as ClientError: (error.message, ExitCode(ExitStatus.unreachable))
        case let error as UsageFailure: (error.message, ExitCode(ExitStatus.usage))
        case let error as CommandFailure: (error.message, ExitCode(ExitStatus.daemonError))
        default: ("something went wrong (\(error)); please report it with the command you ran", ExitCode(ExitStatus.daemonError))
        }
    }

    /// 3 when the daemon says there is no (longer a) session, else 1.
    static func status(for error: RPCError) -> ExitCode {
        switch error.code {
        case RPCError.notLoggedInCode, RPCError.sessionExpiredCode: ExitCode(ExitStatus.notLoggedIn)
        default: ExitCode(ExitStatus.daemonError)
        }
    }

    /// The daemon's error as the user reads it.
    static func message(for error: RPCError) -> String {
        let mismatch = "onthemap and onthemapd may be of different versions: compare `onthemap --version` and `onthemapd --version`"
        switch error.code {
        case RPCError.invalidParamsCode:
            // "Invalid params: query is required." names the protocol's field, not anything the
            // user typed: the commands check that before sending, so reaching this is a mismatch.
            return "onthemapd did not accept the request; \(mismatch)"
        case RPCError.parseErrorCode, RPCError.invalidRequestCode, RPCError.methodNotFoundCode:
            return "onthemapd did not understand the request; \(mismatch)"
        case RPCError.internalErrorCode:
            let detail = Self.detail(of: error.message, after: "Internal error: ")
            return "onthemapd failed (\(detail)); its log says more: \(StartAdvice.whereItsLogIs)"
        case RPCError.placeNotFoundCode where error.message.hasPrefix("No place matches \"") && error.message.hasSuffix("\"."):
            // The daemon's `map --near` answer, in the words `students --near` uses (Place.notFound).
            let quoted = error.message.dropFirst("No place matches ".count).dropLast()
            return "no place matches \(quoted): try \"City, Country\" or LAT,LON"
        case RPCError.invalidCredentialsCode where error.message.hasPrefix("Account not found or invalid credentials"):
            return detail(of: error.message, after: "") + ": check the email and password, then run `onthemap login` again"
        default:
            return error.message
        }
    }

    /// `message` without its protocol prefix and final full stop.
    private static func detail(of message: String, after prefix: String) -> String {
        var text = message.hasPrefix(prefix) ? String(message.dropFirst(prefix.count)) : message
        if text.hasSuffix(".") { text.removeLast() }
        return text
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
