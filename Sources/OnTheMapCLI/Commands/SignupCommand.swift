import ArgumentParser
import OnTheMapClient
import OnTheMapRPC

/// `onthemap signup`.
struct SignupCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "signup", abstract: "Open Udacity's sign-up page (or say where accounts come from on a self-hosted server).",
        discussion: ExitStatus.help)

    @OptionGroup var global: GlobalOptions

    static let signupURL = "https://auth.udacity.com/sign-up"
    /// The API Udacity's accounts are for (onthemapd's default).
    static let udacityAPIHost = "onthemap-api.udacity.com"

    func run() throws {
        try runReportingFailures {
            // Which server the daemon uses decides where an account comes from; a daemon that is not
            // running would use Udacity's unless configured otherwise, so its page is the answer then.
            let apiURL = try? global.connect(timeout: .seconds(5)).result(StatusParams()).apiURL
            if let apiURL, !apiURL.isEmpty, !Self.isUdacity(apiURL) {
                throw CommandFailure(
                    message: "onthemapd uses the server at \(apiURL), where Udacity accounts do not work: ask its operator for an account (they add one with `onthemap-server user add`)")
            }
            try URLOpener.open(Self.signupURL)
        }
    }

    /// Whether `apiURL` is Udacity's service.
    static func isUdacity(_ apiURL: String) -> Bool {
        guard let scheme = apiURL.firstRange(of: "://") else { return false }
        let host = apiURL[scheme.upperBound...].prefix { $0 != "/" && $0 != ":" }
        return host.lowercased() == udacityAPIHost
    }
}
