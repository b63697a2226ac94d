import ArgumentParser
import OnTheMapRPC

/// `onthemap logout`.
struct LogoutCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "logout", abstract: "Log out and forget the session.", discussion: ExitStatus.help)

    @OptionGroup var global: GlobalOptions

    func run() throws {
        try runReportingFailures {
            let upstream = try global.result(LogoutParams()).upstream
            Output.error("logged out" + (upstream == "ended" ? "" : " (upstream: \(upstream))"))
        }
    }
}
