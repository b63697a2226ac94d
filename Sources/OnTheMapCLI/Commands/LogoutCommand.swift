import ArgumentParser
import OnTheMapRPC

/// `onthemap logout`.
struct LogoutCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "logout", abstract: "Log out and forget the session.", discussion: ExitStatus.help)

    @OptionGroup var global: GlobalOptions

    func run() throws {
        try runReportingFailures {
            Output.error(Self.sentence(upstream: try global.result(LogoutParams()).upstream))
        }
    }

    /// What a logout did, from the daemon's `upstream`: "ended", "already ended", "no session", or
    /// why the server was not reached.
    static func sentence(upstream: String) -> String {
        switch upstream {
        case "ended": "logged out"
        case "no session": "already logged out"
        case "already ended": "logged out (the server had already ended the session)"
        case let reason where reason.hasPrefix("not reached"): "logged out; the server was \(reason)"
        default: "logged out (\(upstream))"
        }
    }
}
